// C0 and C1 control characters, and the format characters that hide text (zero-width,
// bidi overrides, BOM). Tabs and newlines become spaces before this runs.
const invisible = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
const whitespace = /\s+/g;

/**
 * NFKC, control and invisible characters removed, white space collapsed to one space, and
 * trimmed; case is kept. The readable form of a short text such as a query.
 */
export function cleanText(text: string): string {
  return text.normalize("NFKC").replace(whitespace, " ").replace(invisible, "").replace(whitespace, " ").trim();
}

/** {@link cleanText} then lower case: the comparable form of a short text (a term, a query). */
export function foldText(text: string): string {
  return cleanText(text).toLowerCase();
}
