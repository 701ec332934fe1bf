import { containsCjk, lexicalTerms } from "@lookup-knowledge/text";

/**
 * A title or keyword is ordinary vocabulary of a knowledge base when its rarest word is in at
 * least this share of the records (1 in 100): "load balance" or `API` in a gateway's docs, 常见问题...
 */
export const commonTermShare = 0.01;
/** ...and in at least this many records, so that in a small base a topic's own words stay specific. */
export const commonTermRecords = 20;

/**
 * The L0 index's `isCommonTerm` for a local index: a title or keyword whose every word is
 * ordinary vocabulary of the base (in at least 1% of its records and at least 20 of them)
 * never sets a category filter on its own. That holds for one word as for a phrase: an
 * all-capitals word (`API`, `FAQ`) looks like an identifier but can be the base's everyday
 * word. A word the index splits into several terms (`limit-req`, `OpenTelemetry`, `TiDB`) is
 * not asked: the index counts its parts one by one, and common parts do not make the word
 * common, so it stays specific.
 */
export function commonTermTest(index: { termShare(text: string): number; stats(): { chunks: number } }): (term: string) => boolean {
  const records = index.stats().chunks;
  const least = Math.max(commonTermShare, records > 0 ? commonTermRecords / records : 1);
  return (term) => {
    const text = term.trim();
    // A word the index splits, alone or inside a phrase ("limit-req plugin"), keeps the term specific.
    const splitWord = text.split(/\s+/).some((word) => !containsCjk(word) && lexicalTerms(word).length > 1);
    return text !== "" && !splitWord && index.termShare(text) >= least;
  };
}

/** Whether a store's port tells how common a text's words are (the local index does). */
export function hasTermShare<T extends object>(port: T): port is T & { termShare(text: string): number; stats(): { chunks: number } } {
  const candidate = port as { termShare?: unknown; stats?: unknown };
  return typeof candidate.termShare === "function" && typeof candidate.stats === "function";
}
