/**
 * English function words of three letters or more (shorter words are never significant). A
 * title word on this list does not have to appear in the query for the title to match.
 */
const stopWords = new Set([
  "about", "after", "all", "also", "and", "any", "are", "because", "been", "before", "being",
  "between", "both", "but", "can", "cannot", "could", "did", "does", "doing", "done", "during",
  "each", "for", "from", "further", "had", "has", "have", "having", "her", "here", "hers", "him",
  "his", "how", "into", "its", "itself", "just", "more", "most", "must", "not", "now", "off",
  "once", "only", "other", "our", "ours", "out", "over", "own", "same", "she", "should", "some",
  "such", "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they",
  "this", "those", "through", "too", "under", "until", "very", "via", "was", "were", "what",
  "when", "where", "which", "while", "who", "whom", "why", "will", "with", "within", "without",
  "would", "yet", "you", "your", "yours",
]);

/** Whether a normalised word carries meaning of its own in a title (length 3+, not a function word). */
export function isSignificantWord(word: string): boolean {
  return word.length >= 3 && !stopWords.has(word);
}
