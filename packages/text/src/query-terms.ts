import { characterCount } from "./characters.js";
import { foldText } from "./clean-text.js";
import { prepareTerms } from "./contains-term.js";
import type { SearchTerm } from "./contains-term.js";
import { cjkWords } from "./segment-cjk.js";
import { splitWords } from "./split-words.js";
import { chineseStopWords, englishStopWords } from "./stop-words.js";

/**
 * The containment view of a query, for rule rerank: the terms worth looking for in titles,
 * headings and content. Words of three or more characters that are not stop words, and
 * the CJK dictionary words (`cjkWords`) of two or more characters that are not stop words.
 * Distinct, in query order, prepared for `containsTerm`.
 */
export function queryTerms(query: string): SearchTerm[] {
  const terms: string[] = [];
  for (const token of splitWords(foldText(query))) {
    if (token.kind === "cjk") {
      for (const word of cjkWords(token.text)) {
        if (characterCount(word) >= 2 && !chineseStopWords.has(word)) terms.push(word);
      }
    } else if (token.kind === "word" && characterCount(token.text) >= 3 && !englishStopWords.has(token.text)) {
      terms.push(token.text);
    }
  }
  return prepareTerms(terms);
}
