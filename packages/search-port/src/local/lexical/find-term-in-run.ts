import type { VerifiedFile } from "../format/verified-file.js";

/** Where a run of a format-4 lexicon's terms lies: the postings file (its term ends at `termEndsAt`) and the terms file. */
export interface TermRunFiles {
  postingsFile: VerifiedFile;
  termsFile: VerifiedFile;
  termEndsAt: number;
}

/**
 * `term`'s index among the lexicon's terms `low` to `high` (a few: the end of a binary search
 * by reads), or -1 when not there: their ends and their bytes in two reads, then a binary
 * search in memory comparing decoded terms (UTF-16 order, as the terms are sorted). `fail`
 * reports ends that do not add up (a `CorruptIndexError` naming the postings file).
 */
export function findTermInRun(files: TermRunFiles, low: number, high: number, term: string, fail: (what: string) => never): number {
  const { postingsFile, termsFile, termEndsAt } = files;
  const first = Math.max(0, low - 1);
  const endBytes = postingsFile.read(termEndsAt + 4 * first, 4 * (high - first + 1));
  const ends = new DataView(endBytes.buffer, endBytes.byteOffset, endBytes.byteLength);
  const endOf = (index: number) => ends.getUint32(4 * (index - first), true);
  const from = low === 0 ? 0 : endOf(low - 1) + 1;
  const to = endOf(high);
  if (to < from || to > termsFile.size) fail(`has inconsistent ends for terms ${low} to ${high}`);
  const bytes = termsFile.read(from, to - from);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let bottom = low;
  let top = high;
  while (bottom <= top) {
    const middle = (bottom + top) >>> 1;
    const start = middle === 0 ? 0 : endOf(middle - 1) + 1;
    const end = endOf(middle);
    if (end < start || start < from || end > to) fail(`has an inconsistent end for term ${middle}`);
    const candidate = text.toString("utf8", start - from, end - from);
    if (candidate === term) return middle;
    if (candidate < term) bottom = middle + 1;
    else top = middle - 1;
  }
  return -1;
}
