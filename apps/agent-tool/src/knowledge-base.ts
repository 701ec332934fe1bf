// `@lookup-knowledge/agent-tool/knowledge-base`: `openKnowledgeBase` alone, for a program that
// only looks things up (the CLI's `query`): `./stores` also brings ingest and explain, which a
// lookup does not use (issue 36 item 5: a cold query loaded their modules too).
export { openKnowledgeBase } from "./open-knowledge-base.js";
export type { KnowledgeBase } from "./open-knowledge-base.js";
