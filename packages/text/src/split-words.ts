import { CharacterKind, characterKind } from "./characters.js";
import { codeUnitKind } from "./code-unit-kind.js";

/** One piece of analysed text, in text order. */
export interface TextToken {
  /** NFKC and lower case. */
  text: string;
  /**
   * `word`: a word of a space-separated script, or one part of a compound; `compound`: the
   * parts of a compound joined (only with `compounds`), right after its last part; `cjk`: a
   * run of Chinese, Japanese or Korean characters, to be segmented.
   */
  kind: "word" | "compound" | "cjk";
  /**
   * For words: whether it continues the phrase of the word before (no CJK, no sentence
   * punctuation and no line break between). Always false for compounds and CJK runs.
   */
  continuesPhrase: boolean;
}

export interface SplitWordsOptions {
  /**
   * Also split words where the case changes: `getUserName` gives `get`, `user`, `name`;
   * `HTTPServer` gives `http`, `server`; `X509Certificate` gives `x509`, `certificate`.
   * Default false (text that is already lower case has no case to split at).
   */
  caseChanges?: boolean;
  /**
   * After the parts of a compound, also give the parts joined: `rate_limit`, `rate-limit`,
   * `rate.limit` and `rateLimit` (with `caseChanges`) all give `ratelimit` besides `rate`
   * and `limit`. A compound is two or more parts glued by one `_`, `-` or `.` each, or by a
   * case change, and holding a letter (so `1.5` gives no `15`). Paths (`/`) are not
   * compounds. Default false.
   */
  compounds?: boolean;
  /** Keep `+` and `#` right after a word on it, so `C++` and `C#` stay words. Default true. */
  wordSuffixes?: boolean;
}

const asciiOnly = /^[\u0000-\u007f]*$/;
/** The kind of each ASCII character: letters and digits are word characters, the rest separate. */
const asciiKinds = Uint8Array.from({ length: 128 }, (_, code) => characterKind(String.fromCharCode(code)));
/** Words that may hold a case change: with an upper-case ASCII letter, or any non-ASCII character. */
const mayChangeCase = /[A-Z\u0080-\uffff]/;
const caseChange = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=\p{N})(?=\p{Lu}\p{Ll})/u;
const letter = /\p{L}/u;

/**
 * The one word splitter. NFKC-normalises the text and splits it into words of
 * space-separated scripts (letters, marks and digits; punctuation, symbols and spaces
 * separate them, so `node.js` gives `node`, `js` and `/usr/local` gives `usr`, `local`)
 * and runs of CJK characters (a CJK character also ends a word: `如何配置api限流` gives the
 * run `如何配置`, the word `api` and the run `限流`). Every analyser of this package is
 * built on it.
 */
export function splitWords(text: string, options: SplitWordsOptions = {}): TextToken[] {
  const caseChanges = options.caseChanges ?? false;
  const compounds = options.compounds ?? false;
  const wordSuffixes = options.wordSuffixes ?? true;
  // NFKC leaves ASCII as it is.
  const normalized = asciiOnly.test(text) ? text : text.normalize("NFKC");
  const tokens: TextToken[] = [];
  // The word and the CJK run being read are slices of `normalized`: [start, end).
  let wordStart = -1;
  let wordEnd = -1;
  let runStart = -1;
  let runEnd = -1;
  let inSuffix = false;
  let phraseOpen = false;
  /** Lower-cased parts of the compound being read. */
  let parts: string[] = [];
  /** Whether the next word continues that compound (one glue character since the last word). */
  let glued = false;

  const endCompound = (): void => {
    if (parts.length >= 2) {
      const joined = parts.join("");
      if (letter.test(joined)) tokens.push({ text: joined, kind: "compound", continuesPhrase: false });
    }
    parts = [];
  };
  const endWord = (): void => {
    if (wordStart < 0) return;
    const word = normalized.slice(wordStart, wordEnd);
    wordStart = -1;
    // A case change needs an upper-case letter: ASCII words without one are not split.
    const pieces = caseChanges && mayChangeCase.test(word) ? word.split(caseChange) : [word];
    for (const piece of pieces) {
      const lower = piece.toLowerCase();
      tokens.push({ text: lower, kind: "word", continuesPhrase: phraseOpen });
      phraseOpen = true;
      if (compounds) parts.push(lower);
    }
  };
  const endRun = (): void => {
    if (runStart < 0) return;
    tokens.push({ text: normalized.slice(runStart, runEnd).toLowerCase(), kind: "cjk", continuesPhrase: false });
    runStart = -1;
    phraseOpen = false;
  };

  for (let index = 0; index < normalized.length; ) {
    const code = normalized.charCodeAt(index);
    // One character (code point) at a time: two code units for a surrogate pair.
    const width =
      code >= 0xd800 && code <= 0xdbff && index + 1 < normalized.length && isLowSurrogate(normalized.charCodeAt(index + 1)) ? 2 : 1;
    const kind =
      code < 0x80
        ? (asciiKinds[code] as CharacterKind)
        : width === 1
          ? codeUnitKind(code)
          : characterKind(normalized.slice(index, index + width));
    const next = index + width;
    if (kind === CharacterKind.Word) {
      if (inSuffix) {
        // `a+b`: the suffix ended the word, and no compound goes on through it.
        endWord();
        inSuffix = false;
        glued = false;
      }
      if (wordStart < 0) {
        endRun();
        if (!glued) endCompound();
        glued = false;
        wordStart = index;
      }
      wordEnd = next;
      index = next;
      continue;
    }
    if (kind === CharacterKind.Cjk) {
      endWord();
      endCompound();
      inSuffix = false;
      glued = false;
      if (runStart < 0) runStart = index;
      runEnd = next;
      index = next;
      continue;
    }
    if (wordSuffixes && wordStart >= 0 && (code === 0x2b || code === 0x23) /* + # */) {
      wordEnd = next;
      inSuffix = true;
      index = next;
      continue;
    }
    const afterWord = wordStart >= 0 && !inSuffix;
    endWord();
    endRun();
    glued = afterWord && (code === 0x5f || code === 0x2d || code === 0x2e) /* _ - . */;
    inSuffix = false;
    if (code === 0x2e || code === 0x21 || code === 0x3f || code === 0x3b || code === 0x3a || code === 0x0a || code === 0x3002) {
      // . ! ? ; : line break and the ideographic full stop end a phrase.
      phraseOpen = false;
    }
    index = next;
  }
  endWord();
  endRun();
  endCompound();
  return tokens;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The words of a text (no compounds, no CJK runs), in order: what phrase and term matching compares. */
export function wordTokens(text: string): string[] {
  const words: string[] = [];
  for (const token of splitWords(text)) if (token.kind === "word") words.push(token.text);
  return words;
}
