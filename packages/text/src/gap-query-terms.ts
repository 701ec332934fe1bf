import { lexicalTerms } from "./lexical-terms.js";
import { queryTerms } from "./query-terms.js";

/** What gaps asks of a knowledge base's index (the local index's `termShare` and `scopeSize`). */
export interface TermShareIndex {
  /** The smallest share of records holding one of a text's lexical terms, 0..1. */
  termShare(text: string): number;
  /** How many records the shares are of. */
  scopeSize(): number;
}

/** A query term as gaps compares it (`term`, as the index holds it) and shows it (`shown`, the word asked). */
export interface GapQueryTerm {
  term: string;
  shown: string;
}

/** How gaps splits a query into terms and, with an index, how many records hold each term. */
export interface GapQueryTerms {
  analyze(text: string): GapQueryTerm[];
  documentFrequencies?: { documentCount: number; frequency(term: string): number };
}

/**
 * The terms `lookup-knowledge gaps` and the inspector's Gaps view group queries by: each word
 * retrieval would look for (`queryTerms`: stop words out, Chinese split into words), as the
 * index holds it (`lexicalTerms`: stemmed, so "pods" and "pod" are one term), shown as asked.
 * With `index`, a term's frequency is the number of records holding the word it came from:
 * `termShare` analyses its text again, and a stem analysed again is not always itself
 * ("refused" -> "refus" -> "refu", "others" -> "other" -> a stop word), so asking it for the
 * stem would call common words absent, the rarest of all. The document count is read once.
 */
export function gapQueryTerms(index?: TermShareIndex): GapQueryTerms {
  // The word each single-term word's term came from: what the index is asked about it.
  const wordOfTerm = new Map<string, string>();
  const analyze = (text: string): GapQueryTerm[] =>
    queryTerms(text).flatMap((word) => {
      const terms = lexicalTerms(word.display);
      if (terms.length === 1 && terms[0] !== undefined) wordOfTerm.set(terms[0], word.display);
      return terms.map((term) => ({ term, shown: word.display }));
    });
  if (!index) return { analyze };
  const documentCount = index.scopeSize();
  // A term of no single word analysed here (a part of a word that gave several) is asked as it is.
  const frequency = (term: string) => Math.round(index.termShare(wordOfTerm.get(term) ?? term) * documentCount);
  return { analyze, documentFrequencies: { documentCount, frequency } };
}
