// `@lookup-knowledge/agent-tool/format`: plain-text rendering of a lookup for people (the CLI,
// the demo) and for a model outside LangChain (the MCP server: the same fenced content the
// tool gives). A separate entry, so that a program that prints results does not load LangChain.
export { formatLookupResult } from "./format-lookup-result.js";
export { printable } from "@lookup-knowledge/core";
export { lookupKnowledgeDescription } from "./lookup-knowledge-description.js";
export { renderEvidenceContent } from "./render-evidence-content.js";
export { escapeKnowledgeText } from "./escape-knowledge-text.js";
export { documentIdOf, evidenceKeyOf } from "./document-id-of.js";
