// `@lookup-knowledge/agent-tool/format`: plain-text rendering of a lookup for people (the CLI,
// the demo). A separate entry, so that a program that prints results does not load LangChain.
export { formatLookupResult } from "./format-lookup-result.js";
export { printable } from "./printable.js";
