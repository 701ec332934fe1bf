import type { Jieba } from "@node-rs/jieba";
import { JiebaDictionary } from "./jieba-dictionary.js";
import { bundledDictionaryTotal, loadJiebaClass, readBundledDictionary } from "./load-jieba.js";

/** Where a segmenter gets jieba and its dictionary. */
export interface JiebaSource {
  jieba: () => typeof Jieba;
  dictionary: () => Uint8Array;
  /** The sum of the dictionary's frequencies, when known. */
  total?: (bytes: Uint8Array) => number | undefined;
}

export interface CjkSegmenterOptions {
  /**
   * How much cutting is done with small dictionaries before the whole one is built, counted
   * in CJK characters cut, plus `callCost` per call (building a small jieba). Default 100,000:
   * on the machine it was measured on, small dictionaries cut about 1.5 µs per character and
   * 50 µs per call, so that much costs about what building the whole dictionary does
   * (130-200 ms). A process never pays much more than twice what building the whole
   * dictionary at once would cost, and a few pages or queries cost a few milliseconds, not 200.
   */
  wholeDictionaryAfter?: number;
  source?: JiebaSource;
}

/** What one call costs beyond its characters, in characters. */
const callCost = 35;
const defaultWholeDictionaryAfter = 100_000;
/** At most this many runs' words are kept, each of at most `recentRunLength` characters. */
const recentRuns = 20_000;
const recentRunLength = 256;
/**
 * With the whole dictionary, the words of the last `lateRuns` runs (each of at most
 * `lateRunLength` characters, `lateCharacters` in all) are kept, least recently used out
 * first: the offline embedder cuts a chunk's runs for its glosses, and the index cuts them
 * again for its lexical terms; when the second cut comes soon enough (a small base, or a
 * batch of chunks), it is free.
 */
const lateRuns = 8_192;
const lateRunLength = 4_096;
const lateCharacters = 1_000_000;

const noWords: readonly string[] = Object.freeze([]);

const bundledSource: JiebaSource = {
  jieba: loadJiebaClass,
  dictionary: readBundledDictionary,
  total: (bytes) => (bytes.length === bundledDictionaryTotal.bytes ? bundledDictionaryTotal.total : undefined),
};

/**
 * jieba's segmentation (`cut`, HMM on) with its dictionary built only when it pays. Building
 * jieba's whole dictionary takes 130-200 ms; until the work done so far reaches
 * `wholeDictionaryAfter`, each call builds a dictionary of just the words that occur in its
 * runs (`JiebaDictionary.dictionaryFor`), which cuts them exactly as the whole one does. The
 * words are the same either way; only the time differs.
 */
export class CjkSegmenter {
  private readonly source: JiebaSource;
  private readonly wholeDictionaryAfter: number;
  private whole: Jieba | undefined;
  private jiebaClass: typeof Jieba | undefined;
  private dictionary: JiebaDictionary | undefined;
  private spent = 0;
  /** The words of runs cut lately with small dictionaries, by run. */
  private readonly recent = new Map<string, string[]>();
  /** The words of runs cut lately with the whole dictionary, least recently used first. */
  private readonly late = new Map<string, string[]>();
  private lateLength = 0;

  constructor(options: CjkSegmenterOptions = {}) {
    this.source = options.source ?? bundledSource;
    this.wholeDictionaryAfter = options.wholeDictionaryAfter ?? defaultWholeDictionaryAfter;
  }

  /** Whether the whole dictionary is built (after that, every call uses it). */
  get usesWholeDictionary(): boolean {
    return this.whole !== undefined;
  }

  /** The words of each run, in order, as jieba cuts it with its whole dictionary (HMM on). */
  cut(runs: readonly string[]): string[][] {
    return this.cutShared(runs).map((words) => [...words]);
  }

  /** `cut`, giving the arrays it keeps rather than copies: read them, never change them. */
  cutShared(runs: readonly string[]): readonly (readonly string[])[] {
    const whole = this.whole;
    if (whole !== undefined) return runs.map((run) => (run === "" ? noWords : this.cutWhole(whole, run)));
    // Runs repeat (a page's title is in each of its chunks): those cut lately are not cut again.
    const words = new Map<string, string[]>();
    const unknown: string[] = [];
    for (const run of runs) {
      if (run === "" || words.has(run)) continue;
      const known = this.recent.get(run);
      if (known !== undefined) words.set(run, known);
      else {
        words.set(run, []);
        unknown.push(run);
      }
    }
    if (unknown.length > 0) {
      const jieba = this.jiebaFor(unknown);
      for (const run of unknown) {
        const cut = jieba.cut(run, true);
        words.set(run, cut);
        if (this.whole !== undefined || run.length > recentRunLength) continue;
        if (this.recent.size >= recentRuns) this.recent.clear();
        this.recent.set(run, cut);
      }
    }
    return runs.map((run) => (run === "" ? noWords : (words.get(run) as string[])));
  }

  /** A run's words with the whole dictionary, from the runs cut lately when it is one of them. */
  private cutWhole(whole: Jieba, run: string): string[] {
    const known = this.late.get(run);
    if (known !== undefined) {
      this.late.delete(run);
      this.late.set(run, known);
      return known;
    }
    const cut = whole.cut(run, true);
    if (run.length <= lateRunLength) {
      this.late.set(run, cut);
      this.lateLength += run.length;
      for (const oldest of this.late.keys()) {
        if (this.late.size <= lateRuns && this.lateLength <= lateCharacters) break;
        this.late.delete(oldest);
        this.lateLength -= oldest.length;
      }
    }
    return cut;
  }

  private jiebaFor(runs: readonly string[]): Jieba {
    if (this.whole !== undefined) return this.whole;
    this.jiebaClass ??= this.source.jieba();
    let characters = 0;
    for (const run of runs) characters += run.length;
    this.spent += characters + callCost;
    if (this.spent > this.wholeDictionaryAfter) {
      const bytes = this.dictionary?.fileBytes() ?? this.source.dictionary();
      this.whole = this.jiebaClass.withDict(bytes);
      // The searchable copy and the words kept are no longer needed.
      this.dictionary = undefined;
      this.recent.clear();
      return this.whole;
    }
    if (this.dictionary === undefined) {
      const bytes = this.source.dictionary();
      this.dictionary = new JiebaDictionary(bytes, this.source.total?.(bytes));
    }
    return this.jiebaClass.withDict(this.dictionary.dictionaryFor(runs));
  }
}

/** The segmenter `cjkWords` and the lexical view use, shared by the process. */
export const sharedCjkSegmenter = new CjkSegmenter();
