import type { SegmentEntry } from "../format/segmented-manifest.js";
import type { IndexManifest } from "../format/index-manifest.js";
import type { VerifiedFile } from "../format/verified-file.js";
import { readBlockChecksums } from "../reader/read-block-checksums.js";
import { VerifiedFileSet } from "../reader/verified-file-set.js";
import type { SegmentPart } from "../segments/segment-part.js";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { postingsLayout } from "../lexical/file-lexicon.js";
import { checkPostingSlots, checkSourceTables } from "./check-source-tables.js";

/**
 * One segment of a streaming merge (`writeMergedSegment`): its sorted terms and the small
 * per-slot tables (term starts, lengths, key ends, inverse norms: 17 bytes a record), and its
 * postings, id bytes and vector rows read by range as the merge walks them in order. A
 * written segment reads those from its files through their block checks, a window at a time
 * (never whole); a segment held in memory hands out its own arrays.
 */
export interface MergeSource {
  readonly count: number;
  readonly terms: readonly string[];
  readonly termStarts: Uint32Array;
  readonly lengths: Uint32Array;
  readonly keys: { idEnds: Uint32Array; docIdEnds: Uint32Array; docIdNull: Uint8Array };
  /** Postings `from` to `to` (of all terms, in term order): views valid until the next call. */
  postings(from: number, to: number): { slots: Uint32Array; frequencies: Uint16Array };
  /** Bytes `from` to `to` of the record ids (`"ids"`) or document ids (`"docIds"`) one after another. */
  keyBytes(which: "ids" | "docIds", from: number, to: number): Uint8Array;
  /** The vectors' row size, inverse norms, and rows `from` to `to` as bytes (`stride` each); undefined: no vectors. */
  readonly vectors: { stride: number; inverseNorms: Float32Array; rows(from: number, to: number): Uint8Array } | undefined;
  close(): void;
}

/** Bytes read from a file at a time for each range a merge walks, so it holds a few MB per segment. */
const windowBytes = 1 << 21;

/**
 * The merge source of `part`: read from its files when it has been written (`entry`, files
 * verified block by block as read; its vectors only with `vectorStride`, the index's row
 * size, as a writer opens segments), else from the arrays it holds in memory.
 */
export function openMergeSource(
  directory: string,
  part: SegmentPart & { entry?: SegmentEntry | undefined },
  vectorStride: number | undefined,
): MergeSource {
  if (part.entry === undefined) return memorySource(part);
  return fileSource(directory, part.entry, vectorStride);
}

function memorySource(part: SegmentPart): MergeSource {
  const { snapshot } = part;
  const lexical = snapshot.lexicon.arrays();
  const { ids, docIds } = snapshot.keys.arrays();
  const idBytes: Uint8Array[] = [];
  const docIdBytes: Uint8Array[] = [];
  const count = snapshot.count;
  const idEnds = new Uint32Array(count);
  const docIdEnds = new Uint32Array(count);
  const docIdNull = new Uint8Array(count);
  let idAt = 0;
  let docIdAt = 0;
  for (let slot = 0; slot < count; slot += 1) {
    const id = Buffer.from(ids[slot] as string, "utf8");
    idBytes.push(id);
    idAt += id.length;
    idEnds[slot] = idAt;
    const docId = docIds[slot] ?? null;
    if (docId === null) docIdNull[slot] = 1;
    else {
      const bytes = Buffer.from(docId, "utf8");
      docIdBytes.push(bytes);
      docIdAt += bytes.length;
    }
    docIdEnds[slot] = docIdAt;
  }
  const allIds = Buffer.concat(idBytes, idAt);
  const allDocIds = Buffer.concat(docIdBytes, docIdAt);
  const matrix = snapshot.vectors;
  return {
    count,
    terms: lexical.terms,
    termStarts: lexical.termStarts,
    lengths: lexical.lengths,
    keys: { idEnds, docIdEnds, docIdNull },
    postings: (from, to) => ({
      slots: lexical.postingSlots.subarray(from, to),
      frequencies: lexical.postingFrequencies.subarray(from, to),
    }),
    keyBytes: (which, from, to) => (which === "ids" ? allIds : allDocIds).subarray(from, to),
    vectors:
      matrix === undefined
        ? undefined
        : {
            stride: matrix.stride,
            inverseNorms: matrix.inverseNorms,
            rows: (from, to) => matrix.rowBytes().subarray(from * matrix.stride, to * matrix.stride),
          },
    close: () => {},
  };
}

/** A window over one range of a file, refilled as reads move past it. */
class FileWindow {
  private buffer = new Uint8Array(0);
  private start = 0;
  private end = 0;

  constructor(
    private readonly file: VerifiedFile,
    private readonly base: number,
    private readonly limit: number,
  ) {}

  /** Bytes `from` to `to` of the range (relative to its base), a view valid until the next call. */
  read(from: number, to: number): Uint8Array {
    if (from >= this.start && to <= this.end) return this.buffer.subarray(from - this.start, to - this.start);
    const length = Math.min(this.limit - from, Math.max(to - from, windowBytes));
    if (this.buffer.length < length) this.buffer = new Uint8Array(length);
    this.file.readInto(this.buffer.subarray(0, length), this.base + from);
    this.start = from;
    this.end = from + length;
    return this.buffer.subarray(0, to - from);
  }
}

function fileSource(directory: string, entry: SegmentEntry, vectorStride: number | undefined): MergeSource {
  const manifest = { files: entry.files } as IndexManifest;
  const checksums = readBlockChecksums(directory, entry.files.blocks as NonNullable<SegmentEntry["files"]["blocks"]>, manifest, "xxh64");
  const opened = new VerifiedFileSet(directory, manifest, checksums, "xxh64");
  try {
    const count = entry.chunks;
    const fail = (file: VerifiedFile, what: string): never => {
      throw new CorruptIndexError({ directory, reason: `${file.name} ${what}` });
    };
    const postingsFile = opened.open("postings");
    const layout = postingsLayout({ terms: entry.terms, postings: entry.postings, chunks: count, totalLength: entry.totalLength });
    if (postingsFile.size !== layout.bytes) fail(postingsFile, `has ${postingsFile.size} bytes, its segment needs ${layout.bytes}`);
    const termStarts = new Uint32Array(postingsFile.read(0, 4 * (entry.terms + 1)).buffer);
    if (termStarts[0] !== 0 || termStarts[entry.terms] !== entry.postings) fail(postingsFile, "has inconsistent term starts");
    const lengths = new Uint32Array(postingsFile.read(layout.lengthsAt, 4 * count).buffer);
    const termsFile = opened.open("terms");
    const text = Buffer.from(termsFile.read(0, termsFile.size).buffer).toString("utf8");
    const terms = entry.terms === 0 ? [] : text.split("\n");
    if (terms.length !== entry.terms) fail(termsFile, `does not hold ${entry.terms} terms`);
    const slotWindow = new FileWindow(postingsFile, layout.slotsAt, 4 * entry.postings);
    const frequencyWindow = new FileWindow(postingsFile, layout.frequenciesAt, 2 * entry.postings);
    const keysFile = opened.open("keys");
    const tables = keysFile.read(0, 9 * count);
    const idEnds = new Uint32Array(tables.buffer, 0, count);
    const docIdEnds = new Uint32Array(tables.buffer, 4 * count, count);
    const docIdNull = tables.subarray(8 * count, 9 * count);
    const idBytes = count === 0 ? 0 : (idEnds[count - 1] as number);
    const docIdBytes = count === 0 ? 0 : (docIdEnds[count - 1] as number);
    if (keysFile.size !== 9 * count + idBytes + docIdBytes) fail(keysFile, "does not match its tables");
    const byKind = { postings: postingsFile, terms: termsFile, keys: keysFile };
    checkSourceTables({ count, terms, termStarts, idEnds, docIdEnds }, (kind, what) => fail(byKind[kind], what));
    const idWindow = new FileWindow(keysFile, 9 * count, idBytes);
    const docIdWindow = new FileWindow(keysFile, 9 * count + idBytes, docIdBytes);
    const vectorsFile = entry.files.vectors === undefined || vectorStride === undefined ? undefined : opened.open("vectors");
    let vectors: MergeSource["vectors"];
    if (vectorsFile !== undefined && vectorStride !== undefined && count > 0) {
      // The size the index's row size gives, as a reader checks it (read-verified-vectors.ts).
      const stride = vectorStride;
      const expected = 4 * count + count * stride;
      if (vectorsFile.size !== expected) fail(vectorsFile, `has ${vectorsFile.size} bytes, expected ${expected}`);
      const inverseNorms = new Float32Array(vectorsFile.read(0, 4 * count).buffer);
      const rowWindow = new FileWindow(vectorsFile, 4 * count, stride * count);
      vectors = { stride, inverseNorms, rows: (from, to) => rowWindow.read(from * stride, to * stride) };
    }
    // Postings are read term by term, pass after pass, in term order: each term's slots are
    // checked the first time they are read.
    let checkedTo = 0;
    return {
      count,
      terms,
      termStarts,
      lengths,
      keys: { idEnds, docIdEnds, docIdNull },
      postings: (from, to) => {
        const slotBytes = slotWindow.read(4 * from, 4 * to);
        const frequencyBytes = frequencyWindow.read(2 * from, 2 * to);
        const slots = new Uint32Array(slotBytes.buffer, slotBytes.byteOffset, to - from);
        if (to > checkedTo) {
          checkPostingSlots(slots, count, (what) => fail(postingsFile, what));
          checkedTo = to;
        }
        return { slots, frequencies: new Uint16Array(frequencyBytes.buffer, frequencyBytes.byteOffset, to - from) };
      },
      keyBytes: (which, from, to) => (which === "ids" ? idWindow : docIdWindow).read(from, to),
      vectors,
      close: () => opened.closeAll(),
    };
  } catch (error) {
    opened.closeAll();
    throw error;
  }
}
