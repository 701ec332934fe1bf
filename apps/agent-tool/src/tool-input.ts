// `@lookup-knowledge/agent-tool/tool-input`: the input contract of `lookup_knowledge`, for every
// face of the tool: its zod schema (the MCP server declares its JSON Schema), the description
// the model reads, and the parse that words argument errors. Loads no LangChain.
export { lookupKnowledgeDescription } from "./lookup-knowledge-description.js";
export { createLookupKnowledgeInputSchema, lookupKnowledgeInputSchema, lookupKnowledgeUsage } from "./lookup-knowledge-input-schema.js";
export type { LookupKnowledgeInput, LookupKnowledgeInputOptions, LookupKnowledgeInputSchema } from "./lookup-knowledge-input-schema.js";
export { parseToolArguments } from "./parse-tool-arguments.js";
export type { ParsedToolArguments } from "./parse-tool-arguments.js";
