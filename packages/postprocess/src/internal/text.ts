/**
 * Text matching shared by the rule reranker: NFKC + lower-case normalisation, query term
 * extraction (Latin words and CJK word segments), and term search that respects word
 * boundaries for Latin terms and uses plain substring search for CJK terms.
 */

const cjkPattern = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const letterOrDigitPattern = /[\p{L}\p{N}]/u;
const whitespacePattern = /\s+/g;

/** English words too common to say anything about a query. Only words of 3+ letters matter. */
const stopWords: ReadonlySet<string> = new Set(
  (
    "about after all also and any are because been before but can could did does doing don't for from " +
    "get got had has have her here his how into its it's just may more most not now off one our out " +
    "over own she should some such than that the their them then there these they this those through " +
    "too under until use using very was way were what when where which while who whom why will with " +
    "would you your"
  ).split(" ")
);

/** Question and function words of Chinese that segment as words but say nothing about the topic. */
const cjkStopWords: ReadonlySet<string> = new Set(
  "如何 怎么 怎样 什么 为什么 哪些 哪个 是否 可以 能否 我们 你们 他们 这个 那个 一个 没有 的话".split(" ")
);

let segmenter: Intl.Segmenter | undefined;

function wordSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter("zh", { granularity: "word" });
  return segmenter;
}

/** NFKC (folds full-width forms), lower case, whitespace runs collapsed to one space, trimmed. */
export function normalizeText(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(whitespacePattern, " ").trim();
}

/**
 * NFKC and lower case only, for long text searched many times: white space is left as it
 * is (collapsing it costs more than the search), and multi-word terms match any run of
 * white space between their words instead.
 */
export function normalizeLongText(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}

/** Whether the text holds a Han, Kana or Hangul character. */
export function hasCjk(text: string): boolean {
  return cjkPattern.test(text);
}

/** A term prepared once for repeated searching. */
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
  const normalized = normalizeText(term);
  if (normalized === "") return undefined;
  const prepared: SearchTerm = {
    display: term.trim(),
    normalized,
    cjk: hasCjk(normalized),
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
 * The terms of a query worth matching: Latin (and other non-CJK) words of three or more
 * characters that are not stop words, and CJK word segments of two or more characters
 * that are not question or function words, found with
 * `Intl.Segmenter("zh", { granularity: "word" })`. Distinct, in query order.
 */
export function extractQueryTerms(query: string): SearchTerm[] {
  const normalized = normalizeText(query);
  const terms: string[] = [];
  for (const { segment, isWordLike } of wordSegmenter().segment(normalized)) {
    if (!isWordLike) continue;
    if (hasCjk(segment)) {
      if ([...segment].length >= 2 && !cjkStopWords.has(segment)) terms.push(segment);
    } else if ([...segment].length >= 3 && !stopWords.has(segment)) {
      terms.push(segment);
    }
  }
  return prepareTerms(terms);
}

/**
 * Whether normalised `text` contains the term: CJK terms as a substring, other terms only
 * where they start and end on a word boundary (a CJK character next to a Latin term counts
 * as a boundary, so "api" is found in "api网关").
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
    (!term.boundedStart || !isWordCodePoint(lastCodePointOf(text, start))) &&
    (!term.boundedEnd || !isWordCodePoint(text.codePointAt(end)))
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A letter or digit that is not CJK: what a Latin word is made of. */
function isWordCodePoint(codePoint: number | undefined): boolean {
  if (codePoint === undefined) return false;
  if (codePoint < 0x80) {
    return (
      (codePoint >= 0x30 && codePoint <= 0x39) ||
      (codePoint >= 0x61 && codePoint <= 0x7a) ||
      (codePoint >= 0x41 && codePoint <= 0x5a)
    );
  }
  const character = String.fromCodePoint(codePoint);
  return letterOrDigitPattern.test(character) && !cjkPattern.test(character);
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
