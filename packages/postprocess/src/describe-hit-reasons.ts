import type { HitReason } from "@lookup-knowledge/core";
import { foldText, stemWord } from "@lookup-knowledge/text";

/** The most terms the line names; more would make it a list, not a reason. */
const maxTerms = 4;

/** What a block found by the search alone, with no term of the question matched, is said to be. */
export const similarReason = "similar to the question";

/**
 * A block's hit reasons as the model reads them: one short line in plain words, without the
 * pipeline's vocabulary (L0, hints, settings) or scores. From the reasons' `term`s:
 * - `title`: "matches the page title Refunds";
 * - `keyword`, `entity`, `heading`, `query_term`: "mentions refund, invoice" (the question's
 *   words the title, headings or text hold, at most four, each once: `refund` and `Refunds`
 *   are one word, `rate` is not named beside `Rate Limiting`, and the page title already
 *   named is not named again);
 * - `domain`, only when nothing above applies: "in the billing category";
 * - nothing but `semantic`: "similar to the question" (the port's score is not a similarity
 *   for every port, so none is shown).
 *
 * The line is text from documents (titles, keywords): the renderer escapes it where it is placed.
 */
export function describeHitReasons(reasons: readonly HitReason[]): string {
  const parts: string[] = [];
  const named = new Set<string>();
  const title = reasons.find((reason) => reason.signal === "title" && hasTerm(reason));
  if (title?.term !== undefined) {
    parts.push(`matches the page title ${title.term.trim()}`);
    named.add(termKey(title.term));
  }
  const mentioned: Array<{ term: string; key: string }> = [];
  for (const reason of reasons) {
    if (reason.signal === "semantic" || reason.signal === "title" || reason.signal === "domain") continue;
    if (!hasTerm(reason)) continue;
    const key = termKey(reason.term);
    if (named.has(key)) continue;
    named.add(key);
    mentioned.push({ term: reason.term.trim(), key });
  }
  const distinct = withoutContainedTerms(mentioned);
  if (distinct.length > 0) parts.push(`mentions ${distinct.slice(0, maxTerms).join(", ")}`);
  if (parts.length === 0) {
    const domain = reasons.find((reason) => reason.signal === "domain" && hasTerm(reason));
    if (domain?.term !== undefined) parts.push(`in the ${domain.term.trim()} category`);
  }
  return parts.length === 0 ? similarReason : parts.join("; ");
}

/**
 * The terms without those whose every word another term names: "rate" and "limiting" beside
 * "Rate Limiting" say nothing more. Of terms with the same words, the first is kept.
 */
function withoutContainedTerms(terms: ReadonlyArray<{ term: string; key: string }>): string[] {
  // Each term's key, folded and stemmed once (`termKey`), as the caller worked it out.
  const words = terms.map(({ key }) => new Set(key.split(" ")));
  return terms
    .filter((_, index) => {
      const own = words[index] as Set<string>;
      return !words.some((other, at) => {
        if (at === index || other.size < own.size || (other.size === own.size && at > index)) return false;
        return [...own].every((word) => other.has(word));
      });
    })
    .map(({ term }) => term);
}

/** Terms that are one word to a reader: folded (NFKC, case, spacing) and each word stemmed. */
function termKey(term: string): string {
  return foldText(term)
    .split(" ")
    .map((word) => stemWord(word))
    .join(" ");
}

function hasTerm(reason: HitReason): reason is HitReason & { term: string } {
  return typeof reason.term === "string" && foldText(reason.term) !== "";
}
