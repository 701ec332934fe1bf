/** The error codes of the inspector's HTTP answers. */
export type InspectorErrorCode =
  | "host_not_allowed"
  | "origin_not_allowed"
  | "not_found"
  | "method_not_allowed"
  | "unsupported_media_type"
  | "body_too_large"
  | "invalid_request"
  | "traces_unavailable"
  /** Anything else that went wrong while answering: the message says what. */
  | "internal_error";
