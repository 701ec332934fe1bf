import { CharacterKind, characterKind } from "./characters.js";

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

const phraseBreaks: ReadonlySet<string> = new Set([".", "!", "?", ";", ":", "\n", "\u3002"]);
const compoundGlue: ReadonlySet<string> = new Set(["_", "-", "."]);
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
  const tokens: TextToken[] = [];
  let word = "";
  let run = "";
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
    if (word === "") return;
    const pieces = caseChanges ? word.split(caseChange) : [word];
    for (const piece of pieces) {
      const lower = piece.toLowerCase();
      tokens.push({ text: lower, kind: "word", continuesPhrase: phraseOpen });
      phraseOpen = true;
      if (compounds) parts.push(lower);
    }
    word = "";
  };
  const endRun = (): void => {
    if (run === "") return;
    tokens.push({ text: run.toLowerCase(), kind: "cjk", continuesPhrase: false });
    run = "";
    phraseOpen = false;
  };

  for (const character of text.normalize("NFKC")) {
    const kind = characterKind(character);
    if (kind === CharacterKind.Word) {
      if (inSuffix) {
        // `a+b`: the suffix ended the word, and no compound goes on through it.
        endWord();
        inSuffix = false;
        glued = false;
      }
      if (word === "") {
        endRun();
        if (!glued) endCompound();
        glued = false;
      }
      word += character;
      continue;
    }
    if (kind === CharacterKind.Cjk) {
      endWord();
      endCompound();
      inSuffix = false;
      glued = false;
      run += character;
      continue;
    }
    if (wordSuffixes && word !== "" && (character === "+" || character === "#")) {
      word += character;
      inSuffix = true;
      continue;
    }
    const afterWord = word !== "" && !inSuffix;
    endWord();
    endRun();
    glued = afterWord && compoundGlue.has(character);
    inSuffix = false;
    if (phraseBreaks.has(character)) phraseOpen = false;
  }
  endWord();
  endRun();
  endCompound();
  return tokens;
}

/** The words of a text (no compounds, no CJK runs), in order: what phrase and term matching compares. */
export function wordTokens(text: string): string[] {
  const words: string[] = [];
  for (const token of splitWords(text)) if (token.kind === "word") words.push(token.text);
  return words;
}
