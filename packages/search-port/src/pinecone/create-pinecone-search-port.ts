import { createPineconeFetch } from "./fetch-pinecone-records.js";
import { createPineconeSearch } from "./create-pinecone-search.js";
import { createPineconeWriter } from "./create-pinecone-writer.js";
import type { PineconeSearchPort } from "./pinecone-search-port.js";
import type { PineconeSearchPortOptions } from "./pinecone-search-port-options.js";
import { readPineconeSettings } from "./read-pinecone-settings.js";

/**
 * A `KnowledgeSearchPort` (R13) and `KnowledgeWriter` over one namespace of a Pinecone index,
 * through the official client (`@pinecone-database/pinecone` 8, a peer dependency). It takes
 * the client's `Index`; it never creates a client, and never reads or logs the API key.
 *
 * Three modes:
 * - **dense** (`embeddings`): queries and records are embedded with a LangChain `Embeddings`,
 *   scaled to unit length; the chunk text is kept in metadata under `textKey`;
 * - **hybrid** (`embeddings` and `hybrid`, `dotproduct` indexes): records and queries also
 *   carry lexical sparse values (`lexicalSparseValues`), the query's weighted by
 *   `lexicalWeight` and its dense values by the rest;
 * - **integrated** (`integrated`): the index embeds text itself; searches go through
 *   `searchRecords`, writes through `upsertRecords`.
 *
 * Searches validate the filter (`validateMetadataFilter`) and pass it natively, translated
 * so that Pinecone selects what `matchesFilter` would (`toPineconeFilter`); a returned record
 * that the filter excludes fails the search (`filter_not_honoured`) instead of leaking.
 * Scores are normalised per metric (`normalizePineconeScore`): 0..1, higher is better,
 * best first, ties by id. `fetchRecords` reads records back by id (`fetch`), as `search`
 * returns them without a score (`fetch-pinecone-records.ts`). Each call is retried on 429, 5xx, connection failures and
 * timeouts, with backoff, and bounded; a 4xx fails at once with a `PineconePortError`.
 *
 * Bad options throw `ConfigurationError` naming the option (`batchSize`; `read-pinecone-settings.ts`). The search is in `create-pinecone-search.ts`, the writer in `create-pinecone-writer.ts`.
 */
export function createPineconeSearchPort(options: PineconeSearchPortOptions): PineconeSearchPort {
  const settings = readPineconeSettings(options);
  const { upsert, deleteDocuments } = createPineconeWriter(settings);
  return {
    search: createPineconeSearch(settings),
    fetchRecords: createPineconeFetch(settings),
    upsert,
    deleteDocuments,
    mode: settings.mode,
    metric: settings.metric,
    namespace: settings.namespace,
  };
}
