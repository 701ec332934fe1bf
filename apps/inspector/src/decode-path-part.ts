import { InspectorRequestError } from "./inspector-request-error.js";

/** A percent-encoded part of a request path, decoded; a malformed escape is a 400, not a crash. */
export function decodePathPart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new InspectorRequestError({ status: 400, code: "invalid_request", message: "The request path holds a malformed % escape." });
  }
}
