// The page's calls to the inspector's /api/ endpoints (same origin; JSON in, JSON out).
import { type MetadataFilter, parseFilterPairs } from "@lookup-knowledge/core";

export class ApiError extends Error {}

export async function getJson<T>(path: string): Promise<T> {
  return answer<T>(await fetch(path, { headers: { accept: "application/json" } }));
}

export async function postJson<T>(path: string, body: unknown): Promise<T> {
  return answer<T>(await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }));
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json()) as T & { error?: { message: string } };
  if (!response.ok) throw new ApiError(body.error?.message ?? `HTTP ${response.status}`);
  return body;
}

/** A score as the page shows it everywhere: three decimals. */
export function score(value: number | undefined | null): string {
  return value === undefined || value === null ? "-" : value.toFixed(3);
}

/**
 * The filter field's `key=value` lines (blank ones skipped) as the request's filter, read as
 * the CLI reads `--filter`: one parser, `parseFilterPairs` of `@lookup-knowledge/core`
 * (`year=2024` matches the number or the string). A bad line throws `InvalidFilterError`
 * naming its line number.
 */
export function parseFilterLines(text: string): MetadataFilter | undefined {
  const lines = text
    .split("\n")
    .map((line, index) => ({ pair: line.trim(), number: index + 1 }))
    .filter(({ pair }) => pair !== "");
  return parseFilterPairs(
    lines.map(({ pair }) => pair),
    (index) => `filter line ${lines[index]?.number ?? index + 1}`,
  );
}
