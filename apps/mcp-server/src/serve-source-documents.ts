import { errorMessage } from "@lookup-knowledge/core";
import { escapeKnowledgeText } from "@lookup-knowledge/agent-tool/format";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { ErrorCode, ListResourcesRequestSchema, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { protocolError } from "./protocol-error.js";
import { listSourceDocuments, readSourceDocument, SourceReadError, type SourceDocumentsContext } from "./source-documents.js";

/**
 * The server's resources: each source document of the ingested folder as
 * `knowledge://source/<path>`, listed in pages of `resourcePageSize` (the cursor is the offset
 * of the next page) and read back whole; a document changed since the ingest, or out of the
 * folder, is refused with the protocol's error.
 */
export function serveSourceDocuments(server: Server, sources: SourceDocumentsContext, resourcePageSize: number): void {
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    // The cursor is the offset of the next page.
    const cursor = request.params?.cursor;
    const offset = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isSafeInteger(offset) || offset < 0 || String(offset) !== (cursor ?? "0")) {
      throw protocolError(ErrorCode.InvalidParams, "Invalid cursor: pass the nextCursor of the previous page.");
    }
    const documents = await listSourceDocuments(sources);
    const page = documents.slice(offset, offset + resourcePageSize);
    return {
      resources: page.map((document) => ({
        uri: document.uri,
        // A path is text from the knowledge base like any other: escaped where a model may read it.
        name: escapeKnowledgeText(document.source, "line"),
        ...(document.title ? { title: escapeKnowledgeText(document.title, "line") } : {}),
        mimeType: "text/markdown",
        annotations: { audience: ["user", "assistant"] },
      })),
      ...(offset + resourcePageSize < documents.length ? { nextCursor: String(offset + resourcePageSize) } : {}),
    };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    try {
      const { document, text } = await readSourceDocument(sources, request.params.uri);
      return { contents: [{ uri: document.uri, mimeType: "text/markdown", text }] };
    } catch (error) {
      // -32002: the protocol's "resource not found".
      if (SourceReadError.isInstance(error))
        throw protocolError(error.code === "source_not_found" ? -32002 : ErrorCode.InternalError, error.message);
      throw protocolError(ErrorCode.InternalError, `The source document could not be read: ${errorMessage(error)}`);
    }
  });
}
