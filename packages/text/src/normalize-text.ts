/**
 * The one normaliser: Unicode NFKC (folds full-width and compatibility forms: `ＡＰＩ` is
 * `API`, `ﬁ` is `fi`, half-width katakana is full-width) then lower case. Every comparison of
 * terms in the house goes through it, on both sides.
 */
export function normalizeText(text: string): string {
  return text.normalize("NFKC").toLowerCase();
}
