import { stemmer } from "stemmer";

const asciiLetters = /^[a-z]+$/;
const stemCache = new Map<string, string>();
const stemCacheLimit = 200_000;

/**
 * The one stemmer: Porter (`stemmer`) for normalised words of ASCII letters (`processing`
 * gives `process`, `policies` gives `polici`, as does `policy`); words holding digits or
 * other scripts are returned as they are.
 */
export function stemWord(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const stemmed = stemWordUncached(word);
  if (stemCache.size >= stemCacheLimit) stemCache.clear();
  stemCache.set(word, stemmed);
  return stemmed;
}

/** `stemWord` without its cache, for callers that keep their own (`TermTable`). */
export function stemWordUncached(word: string): string {
  return asciiLetters.test(word) ? stemmer(word) : word;
}
