import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/**
 * Reads one spooled record: the parsed record, or why the text is not one. Checks the
 * fields the database needs; `retrievalDetails` must be an object.
 */
export function parseToolInvocationRecord(text: string): { record: ToolInvocationRecord } | { reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return { reason: `not JSON (${(error as Error).message})` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { reason: "not a JSON object" };
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  const expect = (field: string, ok: (entry: unknown) => boolean, what: string): void => {
    if (!ok(record[field])) problems.push(`${field} is not ${what}`);
  };
  const isString = (entry: unknown): boolean => typeof entry === "string";
  const isCount = (entry: unknown): boolean => Number.isSafeInteger(entry) && (entry as number) >= 0;
  expect("id", (entry) => typeof entry === "string" && entry.length > 0, "a non-empty string");
  expect("toolName", isString, "a string");
  expect("query", isString, "a string");
  expect("transformedQuery", isString, "a string");
  expect("createdAt", (entry) => typeof entry === "string" && !Number.isNaN(Date.parse(entry)), "an ISO time");
  expect("durationMs", (entry) => typeof entry === "number" && Number.isFinite(entry), "a number");
  expect("found", (entry) => typeof entry === "boolean", "a boolean");
  expect("evidenceStatus", isString, "a string");
  expect("retrievalLayer", isString, "a string");
  expect("fallbackReason", (entry) => entry === null || typeof entry === "string", "a string or null");
  expect("candidateCount", isCount, "a count");
  expect("evidenceCount", isCount, "a count");
  expect("error", (entry) => entry === null || typeof entry === "string", "a string or null");
  expect("retrievalDetails", (entry) => typeof entry === "object" && entry !== null && !Array.isArray(entry), "an object");
  if (problems.length > 0) return { reason: problems.join("; ") };
  return { record: value as ToolInvocationRecord };
}
