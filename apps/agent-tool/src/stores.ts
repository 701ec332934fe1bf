// `@lookup-knowledge/agent-tool/stores`: a knowledge base on any store, chosen by settings
// (the local index, Pinecone, libSQL). A separate entry, so that importing the tool does not
// load the stores; Pinecone and libSQL are loaded only when opened.
export { ingestIntoStore } from "./ingest-into-store.js";
export { openKnowledgeBase } from "./open-knowledge-base.js";
export type { KnowledgeBase } from "./open-knowledge-base.js";
export { openSearchStore } from "./open-search-store.js";
export type { OpenedStore } from "./open-search-store.js";
export { describeStore, parseStoreSettings, storeKinds } from "./store-settings.js";
export type { StoreSettings } from "./store-settings.js";
export { explainLookup } from "./explain/explain-lookup.js";
export type { ExplainableKnowledgeBase, ExplainLookupOptions } from "./explain/explain-lookup.js";
export type {
  ExplainAttempt,
  ExplainExpected,
  ExplainOutcome,
  ExplainOutcomeKind,
  LookupExplanation,
} from "./explain/lookup-explanation.js";
