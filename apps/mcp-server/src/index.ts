export { createKnowledgeMcpServer, createKnowledgeMcpServerFactory } from "./create-knowledge-mcp-server.js";
export type { KnowledgeMcpServerOptions } from "./create-knowledge-mcp-server.js";
export type { FetchedEvidence, FetchedEvidenceMeta } from "./fetch-evidence.js";
export type { LookupResultMeta } from "./lookup-result-meta.js";
export { lookupResultMetaSchema } from "./lookup-result-meta.js";
export { resultMetaKey } from "./result-meta-key.js";
export { mcpServerSettingDefaults, mcpServerSettingNames, readMcpServerSettings } from "./mcp-server-settings.js";
export type { McpServerSettings } from "./mcp-server-settings.js";
export type { McpServerErrorCode } from "./mcp-server-error-code.js";
export { sourceUri, sourceUriPrefix } from "./source-documents.js";
export { serveMcpHttp } from "./serve-mcp-http.js";
export type { McpHttpOptions, McpHttpServer } from "./serve-mcp-http.js";
export { serveMcpStdio } from "./serve-mcp-stdio.js";
// The loopback test of the Host and Origin policy (`@lookup-knowledge/agent-tool/http`), under its earlier name.
export { isLoopbackHost as isLoopback } from "@lookup-knowledge/agent-tool/http";
