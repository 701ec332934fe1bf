export { createL0Index } from "./create-l0-index.js";
export { snapshotL0Index } from "./snapshot-l0-index.js";
export { restoreL0Index } from "./restore-l0-index.js";
export { l0IndexSources } from "./l0-index-sources.js";
export type { L0Index, L0Scope } from "./l0-index.js";
export { minimumTermEntries } from "./l0-index-options.js";
export type { L0IndexOptions } from "./l0-index-options.js";
export type { KnowledgeEntry, L0EntryMatch, L0Hints, L0MatchField } from "@lookup-knowledge/core";
export type { L0HintsErrorCode } from "./l0-hints-error-code.js";
