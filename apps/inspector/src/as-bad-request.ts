import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { InspectorRequestError } from "./inspector-request-error.js";

/** A library error caused by the request (a bad configuration, filter or query) as a 400; any other error as is. */
export function asBadRequest(error: unknown): unknown {
  if (LookupKnowledgeError.isInstance(error) && ["invalid_configuration", "invalid_filter", "invalid_query"].includes(error.code)) {
    return new InspectorRequestError({ status: 400, code: "invalid_request", message: error.message, cause: error });
  }
  return error;
}
