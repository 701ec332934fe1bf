import { containsCjk, isWordCodePoint } from "./characters.js";
import { foldText } from "./clean-text.js";

/** A term prepared once for repeated searching with {@link containsTerm}. */
export interface SearchTerm {
  /** As the caller gave it (trimmed), for readable reasons. */
  display: string;
  /** Normalised form that is searched for. */
  normalized: string;
  /** CJK terms match as substrings; others on word boundaries. */
  cjk: boolean;
  /** Whether the first / last character is a word character, so a boundary is required there. */
  boundedStart: boolean;
  boundedEnd: boolean;
  /** For terms of several words: the words with any white space between them. */
  pattern?: RegExp;
}

/** Prepares a term for `containsTerm`; undefined when nothing is left after normalisation. */
export function prepareTerm(term: string): SearchTerm | undefined {
  const normalized = foldText(term);
  if (normalized === "") return undefined;
  const prepared: SearchTerm = {
    display: term.trim(),
    normalized,
    cjk: containsCjk(normalized),
    boundedStart: isWordCodePoint(normalized.codePointAt(0)),
    boundedEnd: isWordCodePoint(lastCodePointOf(normalized, normalized.length)),
  };
  if (normalized.includes(" ")) {
    prepared.pattern = new RegExp(normalized.split(" ").map(escapeRegExp).join("\\s+"), "g");
  }
  return prepared;
}

/** Prepares distinct terms (by normalised form), keeping the first spelling of each. */
export function prepareTerms(terms: readonly string[]): SearchTerm[] {
  const seen = new Set<string>();
  const prepared: SearchTerm[] = [];
  for (const term of terms) {
    if (typeof term !== "string") continue;
    const searchTerm = prepareTerm(term);
    if (!searchTerm || seen.has(searchTerm.normalized)) continue;
    seen.add(searchTerm.normalized);
    prepared.push(searchTerm);
  }
  return prepared;
}

/**
 * Boundary-aware term containment: whether `text` (normalised with `normalizeText`) contains
 * the term. CJK terms match as a substring, other terms only where they start and end on a
 * word boundary (a CJK character next to a Latin term counts as a boundary, so `api` is
 * found in `api网关`, but not in `rapid`). Terms of several words match across any run of
 * white space.
 */
export function containsTerm(text: string, term: SearchTerm): boolean {
  if (text === "") return false;
  const pattern = term.pattern;
  if (pattern) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (term.cjk || onBoundaries(text, term, match.index, match.index + match[0].length)) return true;
      pattern.lastIndex = match.index + 1;
    }
    return false;
  }
  const needle = term.normalized;
  if (term.cjk) return text.includes(needle);
  for (let index = text.indexOf(needle); index >= 0; index = text.indexOf(needle, index + 1)) {
    if (onBoundaries(text, term, index, index + needle.length)) return true;
  }
  return false;
}

function onBoundaries(text: string, term: SearchTerm, start: number, end: number): boolean {
  return (
    (!term.boundedStart || !isWordCodePoint(lastCodePointOf(text, start))) && (!term.boundedEnd || !isWordCodePoint(text.codePointAt(end)))
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The code point that ends just before `index`, surrogate pairs included. */
function lastCodePointOf(text: string, index: number): number | undefined {
  if (index <= 0) return undefined;
  const low = text.charCodeAt(index - 1);
  if (low >= 0xdc00 && low <= 0xdfff && index >= 2) {
    const high = text.charCodeAt(index - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(index - 2);
  }
  return low;
}
