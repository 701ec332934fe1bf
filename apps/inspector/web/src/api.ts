// The page's calls to the inspector's /api/ endpoints (same origin; JSON in, JSON out).

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

/** `key=value` lines into a filter object (a number also matches as a number, as `--filter` does). */
export function parseFilterLines(text: string): Record<string, string | number | boolean> | undefined {
  const filter: Record<string, string | number | boolean> = {};
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "") continue;
    const at = trimmed.indexOf("=");
    if (at <= 0) throw new ApiError(`filter line ${JSON.stringify(trimmed)}: expected key=value`);
    const value = trimmed.slice(at + 1).trim();
    filter[trimmed.slice(0, at).trim()] =
      value === "true" ? true : value === "false" ? false : /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return Object.keys(filter).length === 0 ? undefined : filter;
}
