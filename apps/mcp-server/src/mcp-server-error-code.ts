/** Every `code` an error of `@lookup-knowledge/mcp-server` carries. Option errors are core's `ConfigurationError`. */
export type McpServerErrorCode =
  /** The HTTP server could not listen (port in use, address not available). */
  | "mcp_listen_failed"
  /** A tool call's arguments are not what the tool takes (answered as a tool error). */
  | "invalid_tool_arguments"
  /** No source document has that resource URI (under the fixed filter, if there is one). */
  | "source_not_found"
  /** A source document is known but cannot be served: gone, moved out of the folder, changed since the ingest, too large. */
  | "source_unavailable";
