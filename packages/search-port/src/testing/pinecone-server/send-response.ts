import type { ServerResponse } from "node:http";
import { HttpFailure } from "./http-failure.js";

/** Answers with `status` and a JSON content type, unless the response is already sent or gone. */
export function sendResponse(response: ServerResponse, status: number, body: string): void {
  if (response.destroyed || response.headersSent) return;
  response.writeHead(status, { "content-type": "application/json" });
  response.end(body);
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  sendResponse(response, status, JSON.stringify(value));
}

/** Answers a failed request as Pinecone does: an `HttpFailure` with its status (code 3 for a 400), anything else as a 500 (code 13). */
export function sendFailure(response: ServerResponse, error: unknown): void {
  if (response.headersSent || response.destroyed) return;
  if (error instanceof HttpFailure) {
    sendJson(response, error.status, { code: error.status === 400 ? 3 : error.status, message: error.message, details: [] });
  } else {
    sendJson(response, 500, { code: 13, message: error instanceof Error ? error.message : String(error), details: [] });
  }
}
