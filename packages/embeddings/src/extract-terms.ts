/** The terms of a text that the offline embedder looks at. */
export interface TextTerms {
  /**
   * Words outside CJK scripts (letters, marks and digits), after NFKC and lower case, in text
   * order. `node.js` gives `node`, `js`; `don't` gives `don`, `t`.
   */
  words: string[];
  /** For each word, whether it continues the phrase of the word before (no CJK, no sentence punctuation or line break between). */
  continuesPhrase: boolean[];
  /** Overlapping CJK character bigrams of each CJK run; a run of one character gives that character. */
  cjkGrams: string[];
}

const cjkClass = "\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}";
// One pass finds CJK runs, other words, and the punctuation that ends a phrase. The `v` flag
// gives class subtraction (Node 20 has it); the pattern is built at run time so the compiler
// target does not matter.
const termPattern = new RegExp(
  `([${cjkClass}]+)|([[\\p{L}\\p{M}\\p{N}]--[${cjkClass}]]+)|([.!?;:\\n\\u3002])`,
  "gv",
);

/** Splits a text into the words and CJK bigrams the embedder hashes and looks up. */
export function extractTerms(text: string): TextTerms {
  const words: string[] = [];
  const continuesPhrase: boolean[] = [];
  const cjkGrams: string[] = [];
  const normalised = text.normalize("NFKC").toLowerCase();
  let phraseOpen = false;
  for (const match of normalised.matchAll(termPattern)) {
    const [, cjkRun, word] = match;
    if (word !== undefined) {
      words.push(word);
      continuesPhrase.push(phraseOpen);
      phraseOpen = true;
    } else if (cjkRun !== undefined) {
      phraseOpen = false;
      // Iterate by code point: rare Han characters lie outside the BMP.
      const characters = cjkRun.length === 1 ? [cjkRun] : Array.from(cjkRun);
      if (characters.length === 1) cjkGrams.push(characters[0] as string);
      for (let position = 1; position < characters.length; position += 1) {
        cjkGrams.push(`${characters[position - 1] as string}${characters[position] as string}`);
      }
    } else {
      phraseOpen = false;
    }
  }
  return { words, continuesPhrase, cjkGrams };
}
