import { request as httpRequest } from "node:http";
import { expect } from "vitest";
import type { InspectorServer } from "../serve-inspector.js";

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw HTTP request, so the Host and Origin headers are exactly what the test says. */
export function call(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: options.method ?? "GET", headers: options.headers ?? {} }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on("error", reject);
    request.end(options.body);
  });
}

/** GETs `path` of the served page; the answer must be 200 with a JSON body. */
export async function getJson<T>(base: { server: Pick<InspectorServer, "url"> }, path: string): Promise<T> {
  const answer = await call(new URL(path, base.server.url).href);
  expect(answer.status, answer.body).toBe(200);
  return JSON.parse(answer.body) as T;
}

/** POSTs `body` as JSON to `path` of the served page. */
export async function postJson(base: { server: Pick<InspectorServer, "url"> }, path: string, body: unknown): Promise<Answer> {
  return call(new URL(path, base.server.url).href, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** A row of `GET /api/traces`, as the tests read it. */
export interface Row {
  id: string;
  query: string;
  queryIsHash: boolean;
  found: boolean;
  fallbackReason: string | null;
  evidenceCount: number;
}
/** A rerank entry, of a trace or of a playground run. */
export interface Rerank {
  evidenceKey: string;
  baseScore?: number;
  finalScore: number;
  boosts: Array<{ signal: string; amount: number }>;
}
