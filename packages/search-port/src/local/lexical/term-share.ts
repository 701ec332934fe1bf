import { lexicalTerms } from "@lookup-knowledge/text";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";

/** The most characters of a text `termShare` reads. */
export const maxTermShareChars = 1000;

/**
 * How common a text's rarest word is in a snapshot: the smallest share of records holding
 * one of its analysed terms, 0..1. 0 when the text has no term, or a term no record holds.
 * A phrase whose every word is common ("load balance" in a gateway's docs) scores high;
 * one with a rare word ("health checks", when few records speak of health) scores low. A
 * word the analyser splits counts part by part: `limit-req` is as common as "req".
 */
export function termShare(snapshot: IndexSnapshot, text: string): number {
  // A title or keyword, not a document: a longer text is read up to this many characters.
  const terms = new Set(lexicalTerms(text.length > maxTermShareChars ? text.slice(0, maxTermShareChars) : text));
  if (terms.size === 0 || snapshot.count === 0) return 0;
  let smallest = Number.POSITIVE_INFINITY;
  for (const term of terms) {
    const index = snapshot.lexicon.find(term);
    if (index < 0) return 0;
    smallest = Math.min(smallest, snapshot.lexicon.documentFrequency(index));
  }
  return Math.min(1, smallest / snapshot.count);
}
