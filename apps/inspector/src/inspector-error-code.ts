/** The error codes of the inspector: of its HTTP answers, and `inspector_listen_failed` when it cannot start. */
export type InspectorErrorCode =
  | "host_not_allowed"
  | "origin_not_allowed"
  | "not_found"
  | "method_not_allowed"
  | "unsupported_media_type"
  | "body_too_large"
  | "invalid_request"
  | "traces_unavailable"
  /** The trace store given cannot group lookups (`knowledgeGaps`), so the Gaps view has nothing to show. */
  | "gaps_unavailable"
  /** `serveInspector` could not listen on its host and port (in use, not permitted, not this machine's). */
  | "inspector_listen_failed"
  /** Anything else that went wrong while answering: the message says what. */
  | "internal_error";
