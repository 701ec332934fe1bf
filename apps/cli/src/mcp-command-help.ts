import { mcpTokenVariable } from "./mcp-command-token.js";

/**
 * What `lookup-knowledge mcp --help` says after its options: the bearer-token variable and the
 * settings of the `mcp` object, with their defaults. Plain text with no import of the server,
 * so `--help` loads no MCP SDK; a test holds it to the server's own list of settings.
 */
export const mcpHelpText = `
Token (with --http):
  ${mcpTokenVariable}  a bearer token, 16 characters or more; every
      request must send "Authorization: Bearer <token>" (--token is refused)

Settings, the "mcp" object of lookup-knowledge.config.json (a client starts
the server in a folder of its own: pass --config and --data before "mcp",
as absolute paths):
  filter               a filter on every lookup, e.g. {"tenant": {"$eq": "a"}}
  callerFilter         callers may pass a filter too (default false)
  maxQueryChars        the longest query, in characters (default 8000)
  resourcesPerPage     source documents per resources/list page (default 500)
  toolName             the lookup tool's name (default lookup_knowledge)
  description          what the model is told about the knowledge base
  http.allowedHosts    Host values accepted besides the bound address's
  http.allowedOrigins  Origins accepted besides the server's own
  http.maxBodyBytes    the largest request body, in bytes (default 1048576)
`;
