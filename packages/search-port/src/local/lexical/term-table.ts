import type { VerifiedFile } from "../format/verified-file.js";

/**
 * A lexicon's term table is read whole when its term starts, term ends and terms together
 * hold at most this many bytes (about 340,000 terms of 8 bytes): a lookup is then a binary
 * search in memory instead of reads, and a term's postings range no read either. Larger
 * tables are searched by reads (`FileLexicon`), so a reader's memory does not grow with a
 * large vocabulary.
 */
export const termTableBytes = 4 * 1024 * 1024;

/** A term of characters below U+D800 only: compared by its UTF-8 bytes (`TermTable.findBytes`). */
const belowSurrogates = /^[\u0000-\ud7ff]*$/;

/** Where a lexicon's term table lies: the postings file's term starts and term ends, and the terms file. */
export interface TermTableFiles {
  postingsFile: VerifiedFile;
  termsFile: VerifiedFile;
  terms: number;
  postings: number;
  termEndsAt: number;
}

/**
 * The term table of a format-4 lexicon in memory (read in three reads, block checks as any
 * read): each term's postings range, and the terms' UTF-8 bytes with their ends, searched
 * without splitting them into strings (a lookup decodes the few terms its binary search
 * probes). `fail` reports an inconsistent table (a `CorruptIndexError`).
 */
export class TermTable {
  private constructor(
    private readonly starts: Uint32Array,
    private readonly ends: Uint32Array,
    private readonly text: Buffer,
    private readonly postings: number,
    private readonly fail: (what: string) => never,
  ) {}

  /** The table when it fits `limit` bytes (default `termTableBytes`), else undefined. */
  static read(files: TermTableFiles, fail: (what: string) => never, limit = termTableBytes): TermTable | undefined {
    const { postingsFile, termsFile, terms, postings, termEndsAt } = files;
    if (8 * terms + 4 + termsFile.size > limit) return undefined;
    const startBytes = postingsFile.read(0, 4 * (terms + 1));
    const endBytes = postingsFile.read(termEndsAt, 4 * terms);
    const text = termsFile.read(0, termsFile.size);
    const starts = new Uint32Array(startBytes.buffer, startBytes.byteOffset, terms + 1);
    if (starts[0] !== 0 || starts[terms] !== postings) fail("has inconsistent term starts");
    return new TermTable(
      starts,
      new Uint32Array(endBytes.buffer, endBytes.byteOffset, terms),
      Buffer.from(text.buffer, text.byteOffset, text.byteLength),
      postings,
      fail,
    );
  }

  /** The index of `term` among the sorted terms, or -1. */
  find(term: string): number {
    if (belowSurrogates.test(term)) return this.findBytes(Buffer.from(term, "utf8"));
    let low = 0;
    let high = this.ends.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const candidate = this.term(middle);
      if (candidate === term) return middle;
      if (candidate < term) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** Term `index`'s first posting and the one past its last. */
  range(index: number): [number, number] {
    const start = this.starts[index] as number;
    const end = this.starts[index + 1] as number;
    if (!(end >= start) || end > this.postings) this.fail(`has inconsistent postings for term ${index}`);
    return [start, end];
  }

  /**
   * The index of the term whose UTF-8 bytes are `key`, or -1, comparing bytes without decoding
   * the terms: for a term of characters below U+D800 (Latin, Greek, Cyrillic, CJK, Hangul...)
   * byte order is the terms' order (UTF-16 code units), since every character it is compared
   * with at the first difference is either below U+D800 too (both orders are code point order)
   * or at least U+D800 and so after it in both.
   */
  private findBytes(key: Uint8Array): number {
    const { text, ends } = this;
    let low = 0;
    let high = ends.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const start = middle === 0 ? 0 : (ends[middle - 1] as number) + 1;
      const end = ends[middle] as number;
      if (end < start || end > text.length) this.fail(`has an inconsistent end for term ${middle}`);
      let order = 0;
      const length = Math.min(key.length, end - start);
      for (let at = 0; at < length && order === 0; at += 1) order = (text[start + at] as number) - (key[at] as number);
      if (order === 0) order = end - start - key.length;
      if (order === 0) return middle;
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  private term(index: number): string {
    const start = index === 0 ? 0 : (this.ends[index - 1] as number) + 1;
    const end = this.ends[index] as number;
    if (end < start || end > this.text.length) this.fail(`has an inconsistent end for term ${index}`);
    return this.text.toString("utf8", start, end);
  }
}
