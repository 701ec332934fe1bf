/** The environment variable holding the HTTP server's bearer token (never a command-line flag). */
export const mcpTokenVariable = "LOOKUP_KNOWLEDGE_MCP_TOKEN";
