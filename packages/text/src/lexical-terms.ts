import { addWordTerms, WordHolds } from "./add-word-terms.js";
import { CharacterKind, characterKind } from "./characters.js";
import { sharedCjkSegmenter } from "./cjk-segmenter.js";
import { codeUnitKind } from "./code-unit-kind.js";
import { LexicalOutput } from "./lexical-output.js";
import { defaultCjkSegmentation, segmentCjk } from "./segment-cjk.js";
import { addToWordHash, wordHashStart } from "./term-table.js";
import type { CjkSegmentation } from "./segment-cjk.js";
import { chineseStopWords } from "./stop-words.js";
import type { TermNumbering } from "./term-numbering.js";

export interface LexicalTermsOptions {
  /** How CJK runs become terms; default `defaultCjkSegmentation`. */
  cjk?: CjkSegmentation;
}

const asciiOnly = /^[\u0000-\u007f]*$/;

/**
 * The lexical view, for the BM25 index and sparse vectors: the terms of a text, in order
 * (a term repeats as often as it occurs). Words are split at punctuation and case changes
 * (`rateLimit`, `rate_limit` and `rate-limit` all give `rate`, `limit`; the joined compound
 * is not added: it measured worse, see the README), English stop words are dropped and
 * words of ASCII letters Porter-stemmed; words holding digits or other scripts are kept as
 * they are. CJK runs are segmented by `options.cjk` (`segmentCjk`). Mixed text
 * ("TiDB 的 SQL 优化") gets both kinds of terms.
 *
 * It splits words exactly as `splitWords(text, { caseChanges: true })` does, in one pass
 * that makes no token objects, and looks ASCII words up in a cache of their terms without
 * cutting them out of the text (`addWordTerms`); a test holds it to the implementation it
 * replaced, on the datasets and on hostile strings.
 */
export function lexicalTerms(text: string, options: LexicalTermsOptions = {}): string[] {
  const output = new LexicalOutput(undefined, emptyIds);
  analyseLexically(text, options.cjk ?? defaultCjkSegmentation, output);
  return output.takeStrings();
}

/** Ids gathered here text after text, then copied out (`LexicalOutput`). */
let scratchIds = new Uint32Array(1024);
/** The most ids the scratch array keeps between texts (1 MB): one grown past it for a very long text goes with that text. */
const keptScratchIds = 1 << 18;
const emptyIds = new Uint32Array(0);

/**
 * `lexicalTerms` as ids under `numbering` (`numbering.terms[id]` is the term), for an index
 * that numbers its terms as it analyses its records: the same terms in the same order, but a
 * word seen before is given its id by the cache of word terms without its term being looked
 * up (see `TermNumbering`), and no array of strings is made.
 */
export function lexicalTermIds(text: string, numbering: TermNumbering, options: LexicalTermsOptions = {}): Uint32Array<ArrayBuffer> {
  return idsInScratch(text, numbering, options).slice();
}

/**
 * `lexicalTermIds` without the copy: a view of the array the ids were gathered in, which the
 * next call of either function overwrites. For a caller that reads the ids at once (an index
 * counting a record's terms as it analyses it), so a build makes no array of ids per record.
 */
export function lexicalTermIdsView(text: string, numbering: TermNumbering, options: LexicalTermsOptions = {}): Uint32Array<ArrayBuffer> {
  return idsInScratch(text, numbering, options);
}

function idsInScratch(text: string, numbering: TermNumbering, options: LexicalTermsOptions): Uint32Array<ArrayBuffer> {
  const output = new LexicalOutput(numbering, scratchIds);
  analyseLexically(text, options.cjk ?? defaultCjkSegmentation, output);
  if (output.scratch.length <= keptScratchIds) scratchIds = output.scratch;
  return output.viewIds();
}

function analyseLexically(text: string, cjk: CjkSegmentation, output: LexicalOutput): void {
  // NFKC leaves ASCII as it is.
  const normalized = asciiOnly.test(text) ? text : text.normalize("NFKC");
  const length = normalized.length;
  const runs = new CjkRuns(cjk);
  // The word and the CJK run being read: [start, end) of `normalized`.
  let wordStart = -1;
  let wordEnd = -1;
  let holds = 0;
  let hash = wordHashStart;
  let runStart = -1;
  let runEnd = -1;
  /** Whether the word ended in `+` or `#` (`C++`, `C#`), which no word character may follow. */
  let inSuffix = false;
  for (let index = 0; index < length; ) {
    const code = normalized.charCodeAt(index);
    let width = 1;
    let kind: CharacterKind;
    if (code < 0x80) kind = asciiKinds[code] as CharacterKind;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < length && isLowSurrogate(normalized.charCodeAt(index + 1))) {
      width = 2;
      kind = characterKind(normalized.slice(index, index + 2));
    } else kind = codeUnitKind(code);
    if (kind === CharacterKind.Word) {
      if (inSuffix) {
        addWordTerms(output, normalized, wordStart, wordEnd, holds, hash);
        wordStart = -1;
        inSuffix = false;
      }
      if (wordStart < 0) {
        if (runStart >= 0) runs.add(output, normalized.slice(runStart, runEnd));
        runStart = -1;
        wordStart = index;
        holds = WordHolds.Plain;
        hash = wordHashStart;
      }
      hash = addToWordHash(hash, code);
      if (code >= 0x41 && code <= 0x5a) holds |= WordHolds.Upper;
      else if (code >= 0x80) holds |= WordHolds.Other;
      index += width;
      // The ASCII letters and digits that follow, read in a loop of their own (most of a text).
      for (; index < length; index += 1) {
        const next = normalized.charCodeAt(index);
        if (next >= 0x80) break;
        const asciiClass = asciiClasses[next] as number;
        if (asciiClass === AsciiClass.Separator) break;
        if (asciiClass === AsciiClass.Upper) {
          holds |= WordHolds.Upper;
          hash = Math.imul(hash ^ (next + 0x20), 0x01000193);
        } else hash = Math.imul(hash ^ next, 0x01000193);
      }
      wordEnd = index;
      continue;
    }
    if (kind === CharacterKind.Cjk) {
      if (wordStart >= 0) addWordTerms(output, normalized, wordStart, wordEnd, holds, hash);
      wordStart = -1;
      inSuffix = false;
      if (runStart < 0) runStart = index;
      index += width;
      runEnd = index;
      continue;
    }
    if (wordStart >= 0 && (code === 0x2b || code === 0x23) /* + # */) {
      index += 1;
      wordEnd = index;
      inSuffix = true;
      continue;
    }
    if (wordStart >= 0) addWordTerms(output, normalized, wordStart, wordEnd, holds, hash);
    if (runStart >= 0) runs.add(output, normalized.slice(runStart, runEnd));
    wordStart = -1;
    runStart = -1;
    inSuffix = false;
    index += width;
  }
  if (wordStart >= 0) addWordTerms(output, normalized, wordStart, wordEnd, holds, hash);
  if (runStart >= 0) runs.add(output, normalized.slice(runStart, runEnd));
  runs.placeInto(output);
}

/** The kind of each ASCII character: letters and digits are word characters, the rest separate. */
const asciiKinds = Uint8Array.from({ length: 128 }, (_, code) => characterKind(String.fromCharCode(code)));
/** What an ASCII character is to a word being read (the hash of a word is of its lower case: `addToWordHash`). */
const AsciiClass = { Separator: 0, LowerOrDigit: 1, Upper: 2 } as const;
const asciiClasses = Uint8Array.from({ length: 128 }, (_, code) =>
  asciiKinds[code] !== CharacterKind.Word
    ? AsciiClass.Separator
    : code >= 0x41 && code <= 0x5a
      ? AsciiClass.Upper
      : AsciiClass.LowerOrDigit,
);

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The CJK runs of one text and where their terms go. Bigrams are added at once; dictionary
 * words wait until every run of the text is known, so that they are cut together (one small
 * dictionary for all of them, see `CjkSegmenter`), and are then put in their places.
 * A CJK run is not lower-cased: no character of the CJK scripts has a case (a test checks
 * every one).
 */
class CjkRuns {
  private runs: string[] | undefined;
  /** For each run, how many terms came before it. */
  private places: number[] | undefined;

  constructor(private readonly segmentation: CjkSegmentation) {}

  add(output: LexicalOutput, run: string): void {
    if (this.segmentation === "bigrams") {
      for (const term of segmentCjk(run, "bigrams")) output.addTerm(term);
      return;
    }
    if (this.runs === undefined || this.places === undefined) {
      this.runs = [];
      this.places = [];
      output.deferTerms();
    }
    this.runs.push(run);
    this.places.push(output.count);
  }

  /** Puts the words of the runs in their places in `output`. */
  placeInto(output: LexicalOutput): void {
    const runs = this.runs;
    const places = this.places;
    if (runs === undefined || places === undefined) return;
    const words = sharedCjkSegmenter.cutShared(runs);
    const runTerms = runs.map((run, index) => {
      const runWords = words[index] as readonly string[];
      if (this.segmentation === "words") return runWords.filter((word) => !chineseStopWords.has(word));
      return segmentCjk(run, this.segmentation, runWords);
    });
    output.placeRuns(places, runTerms);
  }
}
