import { z } from "zod";
import { callPinecone } from "./call-pinecone.js";
import { namespaceOption, parsePineconeResponse } from "./parse-pinecone-response.js";
import { PineconePortError } from "./pinecone-port-error.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";

const listPageSize = 100;

const listResponseSchema = z.object({
  vectors: z.array(z.object({ id: z.string() })).nullish(),
  pagination: z.object({ next: z.string().nullish() }).nullish(),
});

/** The ids `{docId}#chunk-N` in the namespace, found by listing the prefix `{docId}#` page by page. */
export async function listPineconeChunkIds(settings: PineconeSettings, docId: string, signal: AbortSignal | undefined): Promise<string[]> {
  const { index, namespace, policy } = settings;
  const pattern = new RegExp(`^${escapeRegExp(docId)}#chunk-\\d+$`);
  const ids: string[] = [];
  let token: string | undefined;
  const seen = new Set<string>();
  do {
    const page = parsePineconeResponse(
      listResponseSchema,
      await callPinecone(
        "listPaginated",
        () =>
          index.listPaginated({
            prefix: `${docId}#`,
            limit: listPageSize,
            ...namespaceOption(namespace),
            ...(token === undefined ? {} : { paginationToken: token }),
          }),
        policy,
        signal,
      ),
      "listPaginated",
    );
    for (const { id } of page.vectors ?? []) if (pattern.test(id)) ids.push(id);
    const next = page.pagination?.next ?? undefined;
    if (next !== undefined && seen.has(next)) {
      throw new PineconePortError({
        code: "pinecone_malformed_response",
        operation: "listPaginated",
        message: `Pinecone listPaginated returned the pagination token ${JSON.stringify(next)} twice`,
      });
    }
    if (next !== undefined) seen.add(next);
    token = next === "" ? undefined : next;
  } while (token !== undefined);
  return ids;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
