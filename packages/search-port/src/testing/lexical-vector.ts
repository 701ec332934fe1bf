/** A term-frequency vector and its Euclidean length. */
export interface LexicalVector {
  terms: Map<string, number>;
  norm: number;
}

const stopWords = new Set([
  "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "has", "have", "how",
  "i", "in", "is", "it", "its", "of", "on", "or", "that", "the", "this", "to", "was", "were", "what",
  "when", "where", "which", "who", "why", "will", "with", "you", "your",
]);

const wordPattern = /[\p{L}\p{M}\p{N}]+/gu;
const cjkRunPattern = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30fc]+/gu;

/**
 * The terms of a text: NFKC, lower case; words of letters and digits with a trailing-s
 * stem (`refunds` -> `refund`, `policies` -> `policy`) and a few English stop words left
 * out; runs of CJK characters become overlapping character bigrams (a lone character is
 * its own term).
 */
export function lexicalTerms(text: string): string[] {
  const terms: string[] = [];
  const normalized = text.normalize("NFKC").toLowerCase();
  for (const [word] of normalized.matchAll(wordPattern)) {
    let last = 0;
    for (const match of word.matchAll(cjkRunPattern)) {
      addWords(word.slice(last, match.index), terms);
      addBigrams(match[0], terms);
      last = match.index + match[0].length;
    }
    addWords(word.slice(last), terms);
  }
  return terms;
}

function addWords(text: string, terms: string[]): void {
  if (text === "") return;
  for (const [word] of text.matchAll(wordPattern)) {
    if (stopWords.has(word)) continue;
    terms.push(stem(word));
  }
}

function addBigrams(run: string, terms: string[]): void {
  const characters = Array.from(run);
  if (characters.length === 1) {
    terms.push(run);
    return;
  }
  for (let index = 0; index + 1 < characters.length; index += 1) {
    terms.push(`${characters[index]}${characters[index + 1]}`);
  }
}

function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The term-frequency vector of a text. */
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
