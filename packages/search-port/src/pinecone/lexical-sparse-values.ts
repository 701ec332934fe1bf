import { lexicalTerms } from "@lookup-knowledge/text";

/** A sparse vector as Pinecone takes it: ascending, unique indices and their values. */
export interface SparseValues {
  indices: number[];
  values: number[];
}

const encoder = new TextEncoder();

/**
 * The lexical half of a sparse-dense (hybrid) Pinecone record or query: the same terms the
 * embedded default indexes (`lexicalTerms` of `@lookup-knowledge/text`: NFKC, lower case,
 * words and compounds, stop words out, Porter stems, CJK bigrams and words), each hashed to a 32-bit index (FNV-1a over its UTF-8 bytes),
 * weighted `1 + ln(tf)` and scaled to unit length, so that the dot product of a query's and a
 * record's sparse values is their lexical cosine (0..1). Terms whose hashes collide share an
 * index. Text without terms gives empty lists.
 */
export function lexicalSparseValues(text: string): SparseValues {
  const counts = new Map<number, number>();
  for (const term of lexicalTerms(text)) {
    const index = fnv1a(term);
    counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  const indices = [...counts.keys()].sort((left, right) => left - right);
  const weights = indices.map((index) => 1 + Math.log(counts.get(index) ?? 1));
  const length = Math.sqrt(weights.reduce((sum, weight) => sum + weight * weight, 0));
  return { indices, values: length === 0 ? [] : weights.map((weight) => weight / length) };
}

function fnv1a(term: string): number {
  let hash = 0x811c9dc5;
  for (const byte of encoder.encode(term)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
