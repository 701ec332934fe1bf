import type { IncomingMessage } from "node:http";
import { InspectorRequestError } from "./inspector-request-error.js";

/** The largest body a POST endpoint reads, in bytes (a question file fits; a runaway upload does not). */
export const maxBodyBytes = 2 * 1024 * 1024;

/**
 * Reads a JSON request body of at most `limit` bytes. A body that is not `application/json`
 * (which a page of another site could send without asking), too large, or not a JSON object
 * is refused with a clear message.
 */
export async function readJsonBody(request: IncomingMessage, limit = maxBodyBytes): Promise<Record<string, unknown>> {
  const type = request.headers["content-type"]?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    throw new InspectorRequestError({
      status: 415,
      code: "unsupported_media_type",
      message: `The body must be application/json, got ${JSON.stringify(request.headers["content-type"] ?? "none")}.`,
    });
  }
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    // The answer closes the connection (serve-inspector), so the rest of the body is never read.
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new InspectorRequestError({ status: 400, code: "invalid_request", message: "The body is not valid JSON." });
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new InspectorRequestError({ status: 400, code: "invalid_request", message: "The body must be a JSON object." });
  }
  return value as Record<string, unknown>;
}

function tooLarge(limit: number): InspectorRequestError {
  return new InspectorRequestError({
    status: 413,
    code: "body_too_large",
    message: `The body is larger than ${limit} bytes.`,
  });
}
