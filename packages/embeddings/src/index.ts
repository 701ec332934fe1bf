export { CorruptWordTableError } from "./corrupt-word-table-error.js";
export { createOfflineEmbeddings } from "./create-offline-embeddings.js";
export { describeEmbedder } from "./embedder-identity.js";
export type { EmbedderIdentity } from "./embedder-identity.js";
export { loadWordTable } from "./load-word-table.js";
export type { LoadWordTableOptions, WordTable, WordTableManifest } from "./load-word-table.js";
export { OfflineEmbeddings } from "./offline-embeddings.js";
export type { OfflineEmbeddingsOptions } from "./offline-embeddings.js";
export type { EmbeddingsErrorCode } from "./embeddings-error-code.js";
