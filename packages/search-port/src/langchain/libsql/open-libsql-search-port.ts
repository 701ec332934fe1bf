import { ConfigurationError, errorMessage, parseOptions } from "@lookup-knowledge/core";
import { importPeer } from "../../internal/import-peer.js";
import { createVectorStoreSearchPort } from "../create-vector-store-search-port.js";
import type { VectorStoreSearchPort } from "../vector-store-search-port.js";
import { VectorStorePortError } from "../vector-store-port-error.js";
import { libsqlSearchPortOptionsSchema } from "./libsql-search-port-options.js";
import type { LibsqlSearchPortOptions } from "./libsql-search-port-options.js";

/** A port over a libSQL table through LangChain's `LibSQLVectorStore`; `close` closes the database. */
export interface LibsqlSearchPort extends VectorStoreSearchPort {
  close(): Promise<void>;
}

/** A libSQL URL fit to show: user information and query values (an `authToken`) hidden. */
export function redactLibsqlUrl(url: string): string {
  return url.replace(/\/\/[^@/?#]*@/, "//***@").replace(/([?&][^=&#]+)=[^&#]*/g, "$1=***");
}

/** The text with the URL's credentials, its query values and the token replaced by `***`. */
function scrubSecrets(text: string, url: string, authToken: string | undefined): string {
  const secrets = new Set<string>();
  const userInfo = /\/\/([^@/?#]*)@/.exec(url)?.[1];
  if (userInfo) for (const part of [userInfo, ...userInfo.split(":")]) if (part.length >= 3) secrets.add(part);
  for (const [, value] of url.matchAll(/[?&][^=&#]+=([^&#]*)/g)) if (value && value.length >= 3) secrets.add(value);
  if (authToken && authToken.length >= 3) secrets.add(authToken);
  let scrubbed = text.split(url).join(redactLibsqlUrl(url));
  for (const secret of [...secrets].sort((left, right) => right.length - left.length)) scrubbed = scrubbed.split(secret).join("***");
  return scrubbed;
}

/**
 * Opens (and creates when missing, without an approximate vector index: searches scan
 * exactly) a table of chunks in a libSQL database and returns a
 * `KnowledgeSearchPort` and `KnowledgeWriter` over it: `createVectorStoreSearchPort` over
 * `LibSQLVectorStore` (`@langchain/community` and `@libsql/client`, optional peers loaded
 * only now), whose profile filters in SQL and searches
 * exactly. The table's vector column is sized for `embeddings` (one `embedQuery` call finds
 * the dimension); a table made for another dimension is refused with an error naming both.
 */
export async function openLibsqlSearchPort(options: LibsqlSearchPortOptions): Promise<LibsqlSearchPort> {
  // By hand, before parseOptions: the refused value is never shown, it may be a token.
  if (options?.authToken != null && typeof options.authToken !== "string") {
    throw new ConfigurationError({ key: "authToken", value: "(hidden)", reason: "expected a string" });
  }
  const { url, authToken, table, embeddings } = parseOptions(libsqlSearchPortOptionsSchema, options, "");
  const { createClient } = await importPeer(() => import("@libsql/client"), "@libsql/client@^0.17.0");
  const { LibSQLVectorStore } = await importPeer(() => import("@langchain/community/vectorstores/libsql"), "@langchain/community@^1.1.29");
  const dimension = (await embeddings.embedQuery("dimension")).length;
  const db = createClient({ url, ...(authToken === undefined ? {} : { authToken }) });
  try {
    // No approximate vector index: the port's libSQL profile scans exactly (libSQL 0.17's
    // index loses rows after deletes), and the index would cost ~9 ms per inserted row.
    await db.execute(`CREATE TABLE IF NOT EXISTS ${table} (content TEXT, metadata TEXT, embedding F32_BLOB(${dimension}))`);
    const columns = await db.execute(`SELECT type FROM pragma_table_info('${table}') WHERE name = 'embedding'`);
    const declared = String(columns.rows[0]?.type ?? "");
    if (declared.toUpperCase() !== `F32_BLOB(${dimension})`) {
      throw new VectorStorePortError({
        code: "vector_store_failed",
        store: "libsql",
        operation: "open",
        message: `The libSQL table ${table} holds vectors of type ${declared || "(none)"}, but the embeddings give ${dimension} dimensions (F32_BLOB(${dimension})); use another table or the embedder it was made with`,
      });
    }
  } catch (error) {
    db.close();
    if (VectorStorePortError.isInstance(error)) throw error;
    throw new VectorStorePortError({
      code: "vector_store_failed",
      store: "libsql",
      operation: "open",
      // Without the cause: the client's error can repeat the URL with its credentials.
      message: `The libSQL database ${redactLibsqlUrl(url)} could not be opened: ${scrubSecrets(errorMessage(error), url, authToken)}`,
    });
  }
  const port = createVectorStoreSearchPort({ vectorStore: new LibSQLVectorStore(embeddings, { db, table, column: "embedding" }) });
  return { ...port, close: async () => db.close() };
}
