import type { MetadataFilter } from "@lookup-knowledge/core";
import type { L0IndexOptions } from "@lookup-knowledge/l0-hints";
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

/** A store that counts term shares inside a caller's scope (the local index does). */
export interface ScopedTermShares {
  termShare(text: string, scope?: MetadataFilter): number;
  scopeSize(scope?: MetadataFilter): number;
}

/**
 * `commonTermTest` inside a caller's scope, for the L0 index that scope sees: shares and the
 * record count come from the records the scope admits only. `undefined` when the store cannot
 * count inside a scope.
 */
export function commonTermTestInScope<T extends object>(port: T): ((scope: MetadataFilter) => (term: string) => boolean) | undefined {
  const candidate = port as Partial<ScopedTermShares>;
  if (typeof candidate.termShare !== "function" || typeof candidate.scopeSize !== "function") return undefined;
  const scoped = port as T & ScopedTermShares;
  return (scope) =>
    commonTermTest({ termShare: (text) => scoped.termShare(text, scope), stats: () => ({ chunks: scoped.scopeSize(scope) }) });
}

/**
 * The L0 index options for a store: a store that tells how common a phrase is (the local
 * index) lets L0 treat its everyday phrases as such, counted in the whole index and, for a
 * caller's scope, among the records it admits.
 */
export function l0IndexOptions<T extends object>(port: T): L0IndexOptions {
  if (!hasTermShare(port)) return {};
  const inScope = commonTermTestInScope(port);
  return { isCommonTerm: commonTermTest(port), ...(inScope === undefined ? {} : { isCommonTermIn: inScope }) };
}
