import { InvalidQueryError } from "@lookup-knowledge/core";
import { cleanText } from "@lookup-knowledge/text";

export interface NormalizedQuery {
  normalized: string;
  truncated: boolean;
}

// Blanks and the characters `cleanText` removes (C0/C1 controls, zero-width and bidi
// format characters, BOM): where the visible text starts.
const visibleStart = /[^\s\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

/**
 * Query normalisation (R3): trim, Unicode NFKC, control and invisible characters removed,
 * whitespace collapsed, and at most `maxLength` characters (cut at a word boundary when one
 * is near). Throws `InvalidQueryError` for a non-string or for a query with no text left.
 */
export function normalizeQuery(raw: unknown, maxLength: number): NormalizedQuery {
  if (typeof raw !== "string") {
    throw new InvalidQueryError({ value: raw, reason: `query must be a string, got ${raw === null ? "null" : typeof raw}` });
  }
  // Bound the work before NFKC: nothing past a few times the limit can survive it. Leading
  // blanks and control characters go first, so padding cannot push the text out of reach.
  const start = raw.search(visibleStart);
  const rest = start <= 0 ? raw : raw.slice(start);
  const bounded = rest.length > maxLength * 4 ? withoutBrokenPair(rest.slice(0, maxLength * 4)) : rest;
  const normalized = cleanText(bounded);
  if (normalized === "") {
    throw new InvalidQueryError({ value: raw, reason: "query is empty after normalisation (blank or only control characters)" });
  }
  if (normalized.length <= maxLength) return { normalized, truncated: rest.length > bounded.length };
  const cut = withoutBrokenPair(normalized.slice(0, maxLength));
  const lastSpace = cut.lastIndexOf(" ");
  const atWord = lastSpace > maxLength / 2 ? cut.slice(0, lastSpace) : cut;
  return { normalized: atWord.trimEnd(), truncated: true };
}

/** Drops a last character that is the first half of a surrogate pair cut in two. */
function withoutBrokenPair(text: string): string {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, -1) : text;
}
