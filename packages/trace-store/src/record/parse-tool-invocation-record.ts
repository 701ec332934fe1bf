import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/**
 * Reads one spooled record: the parsed record, or why the text is not one. Checks the
 * fields the database needs; `retrievalDetails` must be an object, its `attempts` a list of
 * objects (every version wrote one; the first entry that is not an object is named), and its
 * `referenceThreshold`, when present (older records lack it), a number from 0 to 1. An
 * attempt's fields are not checked: an outcome a later version added is read as `error` when
 * the record is read back (`readStoredAttempts`).
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
  expect("retrievalDetails", isObject, "an object");
  const details = record.retrievalDetails;
  if (isObject(details)) {
    if ("referenceThreshold" in details) {
      const threshold = details.referenceThreshold;
      if (typeof threshold !== "number" || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
        problems.push(`retrievalDetails.referenceThreshold is not a number from 0 to 1 (${describeValue(threshold)})`);
      }
    }
    const attempts = details.attempts;
    if (!Array.isArray(attempts)) problems.push(`retrievalDetails.attempts is not a list (${describeValue(attempts)})`);
    else {
      const index = attempts.findIndex((attempt) => !isObject(attempt));
      if (index !== -1) problems.push(`retrievalDetails.attempts.${index} is not an object (${describeValue(attempts[index])})`);
    }
  }
  if (problems.length > 0) return { reason: problems.join("; ") };
  return { record: value as ToolInvocationRecord };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A short, printable rendering of a refused value for the reason. */
function describeValue(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}
