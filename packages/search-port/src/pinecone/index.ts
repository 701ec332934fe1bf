export { connectPineconeSearchPort } from "./connect-pinecone-search-port.js";
export type { PineconeConnectionOptions } from "./connect-pinecone-search-port.js";
export { createPineconeSearchPort } from "./create-pinecone-search-port.js";
export { lexicalSparseValues } from "./lexical-sparse-values.js";
export type { SparseValues } from "./lexical-sparse-values.js";
export { normalizePineconeScore } from "./normalize-pinecone-score.js";
export type { PineconeMetric } from "./normalize-pinecone-score.js";
export { PineconePortError } from "./pinecone-port-error.js";
export type { PineconePortErrorCode } from "./pinecone-port-error.js";
export type {
  PineconeIndex,
  PineconeSearchMode,
  PineconeSearchPort,
  PineconeSearchPortOptions,
} from "./pinecone-search-port.js";
export { toPineconeFilter } from "../internal/to-pinecone-filter.js";
export type { PineconeFilter } from "../internal/to-pinecone-filter.js";
