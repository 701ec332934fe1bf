// Over ~300 lines on purpose: one data structure. The builder and the matcher share the packed
// layout of the term table, so splitting them would expose that layout between files.
import type { L0MatchField } from "@lookup-knowledge/core";
import type { ParsedEntry } from "./parse-knowledge-entries.js";
import { characterCount, compactText, containsCjk, isWordCharacter, normalizeText, stemWord, wordTokens } from "@lookup-knowledge/text";
import { isDistinctiveTerm } from "./is-distinctive-term.js";
import { isSignificantWord } from "./is-significant-word.js";

/** Field codes in the order matches are listed: title, keyword, domain, entity. */
export const matchFields: readonly L0MatchField[] = ["title", "keyword", "domain", "entity"];
const titleField = 0;
const keywordField = 1;
const domainField = 2;
const entityField = 3;

export interface TermIndexSettings {
  /** Shortest term of a space-separated script, in characters. */
  minWordTermLength: number;
  /** Shortest term holding CJK characters, in characters. */
  minCjkTermLength: number;
  /** Most entries a term may belong to and still be specific (from `L0IndexOptions.maxTermShare` and `minimumTermEntries`). */
  maxTermEntries: number;
  /** Says which distinctive terms are common in the corpus after all (`L0IndexOptions.isCommonTerm`). */
  isCommonTerm?: ((term: string) => boolean) | undefined;
}

/**
 * The inverted structures behind an L0 index. Every distinct term becomes a *pattern*; a
 * pattern has postings (entry, field, position of the term in that field, the term as the
 * entry spells it), stored flat and grouped by pattern (`postingStart[p]` to
 * `postingStart[p + 1]`), in entry order within a pattern.
 *
 * Three kinds of pattern, each found without looking at entries:
 * - phrases of words (Latin and other spaced scripts): keyed by their first word, checked at
 *   each word of the query;
 * - CJK terms: keyed by their first two characters, checked at each position of the query;
 * - titles of two or more significant words: found when all those words are in the query,
 *   keyed by the rarest of them.
 */
export class TermIndex {
  // Members are public and read-only so that a snapshot (l0-index-snapshot.ts) can write them.
  constructor(
    readonly phraseIds: Map<string, number>,
    readonly phraseLengthsByFirstWord: Map<string, number[]>,
    readonly cjkIds: Map<string, number>,
    readonly cjkLengthsByPrefix: Map<string, number[]>,
    readonly hasSingleUnitCjkTerms: boolean,
    readonly titleRulesByAnchor: Map<string, Array<{ words: string[]; pattern: number }>>,
    /** Weight of each pattern: the length of its term in characters, spaces left out. */
    readonly patternWeight: Float64Array,
    readonly postingStart: Int32Array,
    readonly postingEntry: Int32Array,
    readonly postingField: Uint8Array,
    readonly postingSlot: Int32Array,
    /** The term as each posting's entry spells it, as a number into `spellings`. */
    readonly postingSpelling: Int32Array,
    readonly spellings: readonly string[],
    /** Id of the term's normalised spelling, so hint lists fold `API` and `ａｐｉ` together. */
    readonly postingTermKey: Int32Array,
    /**
     * 1 when the term, as this entry spells it, is distinctive (see `isDistinctiveTerm`) and not
     * common: only such a match lets the entry's domain become a hint.
     */
    readonly postingDistinctive: Uint8Array,
    /** Distinct entries holding each pattern. */
    readonly patternEntries: Int32Array,
    readonly maxTermEntries: number,
  ) {}

  /** The term of a posting as its entry spells it. */
  termOf(posting: number): string {
    return this.spellings[this.postingSpelling[posting] as number] as string;
  }

  /**
   * The patterns a query contains, each once, in the order they were found: the specific
   * ones, and the generic ones that more than `maxTermEntries` entries hold ("gateway" in a
   * gateway's docs), which say nothing about which entry is meant.
   */
  find(query: string): { specific: number[]; generic: number[] } {
    const normalized = normalizeText(query);
    const found = new Set<number>();
    this.findPhrases(normalized, found);
    if (this.cjkIds.size > 0 && containsCjk(normalized)) this.findCjkTerms(normalized, found);
    const specific: number[] = [];
    const generic: number[] = [];
    for (const pattern of found) ((this.patternEntries[pattern] as number) <= this.maxTermEntries ? specific : generic).push(pattern);
    return { specific, generic };
  }

  private findPhrases(normalized: string, found: Set<number>): void {
    if (this.phraseIds.size === 0 && this.titleRulesByAnchor.size === 0) return;
    const words = wordTokens(normalized).map(stemWord);
    for (let start = 0; start < words.length; start += 1) {
      const first = words[start] as string;
      const lengths = this.phraseLengthsByFirstWord.get(first);
      if (lengths === undefined) continue;
      for (const length of lengths) {
        if (start + length > words.length) continue;
        const key = length === 1 ? first : words.slice(start, start + length).join(" ");
        const pattern = this.phraseIds.get(key);
        if (pattern !== undefined) found.add(pattern);
      }
    }
    if (this.titleRulesByAnchor.size === 0) return;
    const present = new Set(words);
    for (const word of present) {
      const rules = this.titleRulesByAnchor.get(word);
      if (rules === undefined) continue;
      for (const rule of rules) {
        if (rule.words.every((ruleWord) => present.has(ruleWord))) found.add(rule.pattern);
      }
    }
  }

  private findCjkTerms(normalized: string, found: Set<number>): void {
    const text = compactText(normalized);
    for (let start = 0; start < text.length; start += 1) {
      this.findCjkAt(text, start, text.slice(start, start + 2), found);
      if (this.hasSingleUnitCjkTerms) this.findCjkAt(text, start, text.charAt(start), found);
    }
  }

  private findCjkAt(text: string, start: number, prefix: string, found: Set<number>): void {
    const lengths = this.cjkLengthsByPrefix.get(prefix);
    if (lengths === undefined) return;
    for (const length of lengths) {
      const end = start + length;
      if (end > text.length) continue;
      const pattern = this.cjkIds.get(text.slice(start, end));
      if (pattern === undefined) continue;
      // A term that starts or ends with a Latin word must not cut into a longer word.
      if (isWordCharacter(text[start]) && isWordCharacter(text[start - 1])) continue;
      if (isWordCharacter(text[end - 1]) && isWordCharacter(text[end])) continue;
      found.add(pattern);
    }
  }
}

/** Builds the term index of parsed entries, in their order. */
export function buildTermIndex(entries: ParsedEntry[], settings: TermIndexSettings): TermIndex {
  const builder = new TermIndexBuilder(settings);
  entries.forEach((entry, entryIndex) => {
    builder.startEntry(entryIndex);
    if (entry.title !== undefined) builder.add(titleField, 0, entry.title);
    entry.keywords.forEach((keyword, slot) => {
      builder.add(keywordField, slot, keyword);
    });
    if (entry.domain !== undefined) builder.add(domainField, 0, entry.domain);
    entry.entities.forEach((entity, slot) => {
      builder.add(entityField, slot, entity);
    });
  });
  return builder.build();
}

class TermIndexBuilder {
  private readonly phraseIds = new Map<string, number>();
  private readonly phraseLengthsByFirstWord = new Map<string, number[]>();
  private readonly cjkIds = new Map<string, number>();
  private readonly cjkLengthsByPrefix = new Map<string, number[]>();
  private hasSingleUnitCjkTerms = false;
  private readonly titleRuleIds = new Map<string, number>();
  private readonly titleRules: Array<{ words: string[]; pattern: number }> = [];
  private readonly patternWeights: number[] = [];
  /** Normalised spellings seen per pattern (most patterns have one), with their term keys. */
  private readonly patternSpellings: Array<Array<{ spelling: string; key: number }>> = [];
  private termKeyCount = 0;

  private readonly postingPattern: number[] = [];
  private readonly postingEntry: number[] = [];
  private readonly postingField: number[] = [];
  private readonly postingSlot: number[] = [];
  private readonly postingSpelling: number[] = [];
  private readonly spellingIds = new Map<string, number>();
  private readonly spellings: string[] = [];
  private readonly postingTermKey: number[] = [];
  private readonly postingDistinctive: number[] = [];
  /** Whether each distinct spelling is distinctive and not common, so `isCommonTerm` runs once per term. */
  private readonly distinctiveBySpelling = new Map<string, boolean>();

  private entryIndex = -1;
  /** `pattern * 4 + field` of the terms already added for the current entry. */
  private readonly seenInEntry: number[] = [];

  constructor(private readonly settings: TermIndexSettings) {}

  startEntry(entryIndex: number): void {
    this.entryIndex = entryIndex;
    this.seenInEntry.length = 0;
  }

  add(field: number, slot: number, term: string): void {
    const normalized = normalizeText(term);
    const pattern = containsCjk(normalized) ? this.cjkPattern(normalized) : this.wordPattern(normalized, field === titleField);
    if (pattern === undefined) return;
    const seenKey = pattern * 4 + field;
    if (this.seenInEntry.includes(seenKey)) return;
    this.seenInEntry.push(seenKey);
    this.postingPattern.push(pattern);
    this.postingEntry.push(this.entryIndex);
    this.postingField.push(field);
    this.postingSlot.push(slot);
    this.postingSpelling.push(this.spellingId(term));
    this.postingTermKey.push(this.termKey(pattern, normalized));
    this.postingDistinctive.push(this.isDistinctive(term) ? 1 : 0);
  }

  build(): TermIndex {
    const patternCount = this.patternWeights.length;
    const postingCount = this.postingPattern.length;
    // Group postings by pattern with a stable counting sort, keeping entry order inside.
    const postingStart = new Int32Array(patternCount + 1);
    for (const pattern of this.postingPattern) postingStart[pattern + 1] = (postingStart[pattern + 1] ?? 0) + 1;
    for (let pattern = 0; pattern < patternCount; pattern += 1) {
      postingStart[pattern + 1] = (postingStart[pattern + 1] ?? 0) + (postingStart[pattern] ?? 0);
    }
    const next = postingStart.slice(0, patternCount);
    const entry = new Int32Array(postingCount);
    const field = new Uint8Array(postingCount);
    const slot = new Int32Array(postingCount);
    const spelling = new Int32Array(postingCount);
    const termKey = new Int32Array(postingCount);
    const distinctive = new Uint8Array(postingCount);
    const patternEntries = new Int32Array(patternCount);
    const lastEntry = new Int32Array(patternCount).fill(-1);
    for (let posting = 0; posting < postingCount; posting += 1) {
      const pattern = this.postingPattern[posting] as number;
      const postingEntry = this.postingEntry[posting] as number;
      if (lastEntry[pattern] !== postingEntry) {
        lastEntry[pattern] = postingEntry;
        patternEntries[pattern] = (patternEntries[pattern] as number) + 1;
      }
      const target = next[pattern] as number;
      next[pattern] = target + 1;
      entry[target] = this.postingEntry[posting] as number;
      field[target] = this.postingField[posting] as number;
      slot[target] = this.postingSlot[posting] as number;
      spelling[target] = this.postingSpelling[posting] as number;
      termKey[target] = this.postingTermKey[posting] as number;
      distinctive[target] = this.postingDistinctive[posting] as number;
    }
    return new TermIndex(
      this.phraseIds,
      sortLengths(this.phraseLengthsByFirstWord),
      this.cjkIds,
      sortLengths(this.cjkLengthsByPrefix),
      this.hasSingleUnitCjkTerms,
      this.anchorTitleRules(),
      Float64Array.from(this.patternWeights),
      postingStart,
      entry,
      field,
      slot,
      spelling,
      this.spellings,
      termKey,
      distinctive,
      patternEntries,
      this.settings.maxTermEntries,
    );
  }

  private wordPattern(normalized: string, isTitle: boolean): number | undefined {
    const tokens = wordTokens(normalized);
    let length = 0;
    for (const token of tokens) length += characterCount(token);
    if (tokens.length === 0 || length < this.settings.minWordTermLength) return undefined;
    if (isTitle) {
      const significant = [...new Set(tokens.filter(isSignificantWord).map(stemWord))].sort();
      if (significant.length >= 2) return this.titleRulePattern(significant, length);
      // A title of function words only ("and", "with") names nothing.
      if (significant.length === 0) return undefined;
    }
    const words = tokens.map(stemWord);
    const key = words.join(" ");
    const known = this.phraseIds.get(key);
    if (known !== undefined) return known;
    const pattern = this.newPattern(length);
    this.phraseIds.set(key, pattern);
    addLength(this.phraseLengthsByFirstWord, words[0] as string, words.length);
    return pattern;
  }

  private titleRulePattern(words: string[], length: number): number {
    const key = words.join(" ");
    const known = this.titleRuleIds.get(key);
    if (known !== undefined) return this.titleRules[known]?.pattern as number;
    const pattern = this.newPattern(length);
    this.titleRuleIds.set(key, this.titleRules.length);
    this.titleRules.push({ words, pattern });
    return pattern;
  }

  private cjkPattern(normalized: string): number | undefined {
    const key = compactText(normalized);
    const length = characterCount(key.replaceAll(" ", ""));
    if (length < this.settings.minCjkTermLength) return undefined;
    const known = this.cjkIds.get(key);
    if (known !== undefined) return known;
    const pattern = this.newPattern(length);
    this.cjkIds.set(key, pattern);
    if (key.length === 1) this.hasSingleUnitCjkTerms = true;
    addLength(this.cjkLengthsByPrefix, key.slice(0, 2), key.length);
    return pattern;
  }

  /** Distinctive by its shape and not common by the caller's word; each distinct spelling is judged once. */
  private isDistinctive(term: string): boolean {
    const known = this.distinctiveBySpelling.get(term);
    if (known !== undefined) return known;
    const isCommonTerm = this.settings.isCommonTerm;
    const distinctive = isDistinctiveTerm(term) && !(isCommonTerm !== undefined && isCommonTerm(term) === true);
    this.distinctiveBySpelling.set(term, distinctive);
    return distinctive;
  }

  /** A number per distinct term as entries spell it, so postings hold numbers, not strings. */
  private spellingId(term: string): number {
    let id = this.spellingIds.get(term);
    if (id === undefined) {
      id = this.spellings.length;
      this.spellingIds.set(term, id);
      this.spellings.push(term);
    }
    return id;
  }

  private newPattern(weight: number): number {
    this.patternWeights.push(weight);
    return this.patternWeights.length - 1;
  }

  /**
   * A number per distinct normalised spelling, so hint lists count `API` and `ａｐｉ` once.
   * Equal spellings always land on the same pattern, so each pattern keeps its own short list.
   */
  private termKey(pattern: number, normalized: string): number {
    const spelling = normalized.trim().replace(/\s+/gu, " ");
    let spellings = this.patternSpellings[pattern];
    if (spellings === undefined) {
      spellings = [];
      this.patternSpellings[pattern] = spellings;
    }
    for (const known of spellings) if (known.spelling === spelling) return known.key;
    const key = this.termKeyCount;
    this.termKeyCount += 1;
    spellings.push({ spelling, key });
    return key;
  }

  /** Files each title rule under its rarest word, so a common word pulls in few rules. */
  private anchorTitleRules(): Map<string, Array<{ words: string[]; pattern: number }>> {
    const frequency = new Map<string, number>();
    for (const rule of this.titleRules) {
      for (const word of rule.words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    }
    const byAnchor = new Map<string, Array<{ words: string[]; pattern: number }>>();
    for (const rule of this.titleRules) {
      let anchor = rule.words[0] as string;
      for (const word of rule.words) {
        if ((frequency.get(word) ?? 0) < (frequency.get(anchor) ?? 0)) anchor = word;
      }
      const rules = byAnchor.get(anchor);
      if (rules === undefined) byAnchor.set(anchor, [rule]);
      else rules.push(rule);
    }
    return byAnchor;
  }
}

function addLength(lengthsByKey: Map<string, number[]>, key: string, length: number): void {
  const lengths = lengthsByKey.get(key);
  if (lengths === undefined) lengthsByKey.set(key, [length]);
  else if (!lengths.includes(length)) lengths.push(length);
}

function sortLengths(lengthsByKey: Map<string, number[]>): Map<string, number[]> {
  for (const lengths of lengthsByKey.values()) lengths.sort((left, right) => left - right);
  return lengthsByKey;
}
