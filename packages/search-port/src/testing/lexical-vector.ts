import { lexicalTerms } from "@lookup-knowledge/text";

/** A term-frequency vector and its Euclidean length. */
export interface LexicalVector {
  terms: Map<string, number>;
  norm: number;
}

/** The term-frequency vector of a text, over the terms of `lexicalTerms` (the same as the local index's). */
export function lexicalVector(text: string): LexicalVector {
  const terms = new Map<string, number>();
  for (const term of lexicalTerms(text)) terms.set(term, (terms.get(term) ?? 0) + 1);
  let sum = 0;
  for (const count of terms.values()) sum += count * count;
  return { terms, norm: Math.sqrt(sum) };
}

/** Cosine similarity of two term-frequency vectors: 0 (no shared term) to 1 (same mix). */
export function cosineSimilarity(left: LexicalVector, right: LexicalVector): number {
  if (left.norm === 0 || right.norm === 0) return 0;
  const [small, large] = left.terms.size <= right.terms.size ? [left, right] : [right, left];
  let dot = 0;
  for (const [term, count] of small.terms) dot += count * (large.terms.get(term) ?? 0);
  return Math.min(1, dot / (left.norm * right.norm));
}
