import type { IncomingMessage } from "node:http";
import type { z } from "zod";
import { HttpFailure } from "./http-failure.js";

/** The whole body of a request, as text. */
export function readRequestBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** The JSON of a body (or an NDJSON line); a 400 when it is not JSON. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpFailure(400, "the request body is not valid JSON");
  }
}

/** `value` checked by `schema`; a 400 naming the first issue's path when it does not fit. */
export function parseRequest<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
  throw new HttpFailure(400, `Invalid request${where}: ${issue?.message ?? "malformed"}`);
}

/** The namespace a request addressed: in the records path, the query string or the JSON body; none when it named none. */
export function requestNamespace(address: URL, body: string, recordsPath: RegExpExecArray | null): { namespace?: string } {
  if (recordsPath !== null) return { namespace: decodeURIComponent(recordsPath[1] ?? "") };
  const fromQuery = address.searchParams.get("namespace");
  if (fromQuery !== null) return { namespace: fromQuery };
  try {
    const parsed: unknown = body === "" ? undefined : JSON.parse(body);
    const value = parsed !== null && typeof parsed === "object" ? (parsed as Record<string, unknown>)["namespace"] : undefined;
    return typeof value === "string" ? { namespace: value } : {};
  } catch {
    return {};
  }
}
