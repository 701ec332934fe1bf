export { createVectorStoreSearchPort } from "./create-vector-store-search-port.js";
export { functionFilter } from "./function-filter.js";
export { normalizeVectorStoreScore } from "./normalize-vector-store-score.js";
export type { VectorStoreScoreKind } from "./normalize-vector-store-score.js";
export { toLibsqlFilter } from "./to-libsql-filter.js";
export type { LibsqlFilter } from "./to-libsql-filter.js";
export { VectorStorePortError } from "./vector-store-port-error.js";
export type { VectorStorePortErrorCode } from "./vector-store-port-error.js";
export type { VectorStoreProfile } from "./vector-store-profile.js";
export {
  libsqlVectorStoreProfile,
  memoryVectorStoreProfile,
  pineconeVectorStoreProfile,
  vectorStoreProfiles,
} from "./vector-store-profiles.js";
export type { VectorStoreSearchPort } from "./vector-store-search-port.js";
export type { VectorStoreSearchPortOptions } from "./vector-store-search-port-options.js";
