/** Every `code` an error of `@lookup-knowledge/mcp-server` carries. Option errors are core's `ConfigurationError`. */
export type McpServerErrorCode =
  /** The HTTP server could not listen (port in use, address not available). */
  "mcp_listen_failed";
