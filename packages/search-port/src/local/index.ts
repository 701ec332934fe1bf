export { CorruptIndexError } from "./corrupt-index-error.js";
export { EmbedderMismatchError } from "./embedder-mismatch-error.js";
export { IndexLockedError } from "./index-locked-error.js";
export { IndexNotFoundError } from "./index-not-found-error.js";
export type { EmbedderIdentity, LocalIndexStats, LocalSearchPort, LocalSearchPortOptions, ScoreExponents } from "./local-search-port.js";
export { defaultDenseFloor, defaultDenseWeight, defaultMinScore, openLocalSearchPort } from "./open-local-search-port.js";
export { defaultScoreExponents, queryScoreExponent } from "./search-snapshot.js";
export { tokenize } from "./tokenize.js";
export type { CjkSegmentation } from "./tokenize.js";
