import { englishStopWords } from "@lookup-knowledge/text";

/** Whether a normalised word carries meaning of its own in a title (length 3+, not a stop word). */
export function isSignificantWord(word: string): boolean {
  return word.length >= 3 && !englishStopWords.has(word);
}
