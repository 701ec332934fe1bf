import { endianness } from "node:os";
import { CorruptWordTableError } from "./corrupt-word-table-error.js";

/** What `data/word-index.bin` holds (see `scripts/word-index.mjs`, which writes it). */
export interface WordIndex {
  /** The unit direction every averaged text vector leans towards, removed from each one. */
  readonly commonDirection: Float64Array;
  /** Byte offset in words.txt where each word's line starts, by rank; one more: the file's length. */
  readonly starts: Uint32Array;
  /** The ranks, in ascending order of their words' UTF-8 bytes. */
  readonly sortedRanks: Uint32Array;
}

const magic = "LKWI";
const supportedFormatVersion = 1;
const headerBytes = 16;
const littleEndian = endianness() === "LE";

/**
 * Reads the word index of a table of `wordCount` words of `dimension` whose words.txt is
 * `wordsLength` bytes long; `CorruptWordTableError` naming `path` when its layout does not fit.
 * What it holds was worked out when the table was built, so a start reads it instead of
 * working it out again (issue 36 item 5).
 */
export function readWordIndex(bytes: Buffer, path: string, wordCount: number, dimension: number, wordsLength: number): WordIndex {
  const bad = (reason: string): never => {
    throw new CorruptWordTableError({ file: path, reason });
  };
  const expectedBytes = headerBytes + dimension * 8 + (wordCount + 1) * 4 + wordCount * 4;
  if (bytes.byteLength !== expectedBytes) {
    return bad(`${bytes.byteLength} bytes where ${wordCount} words of dimension ${dimension} need ${expectedBytes}`);
  }
  const headerMagic = bytes.toString("latin1", 0, 4);
  const version = bytes.readUInt32LE(4);
  if (headerMagic !== magic || version !== supportedFormatVersion) {
    return bad(`header says ${JSON.stringify(headerMagic)} format ${version}, expected "${magic}" format ${supportedFormatVersion}`);
  }
  if (bytes.readUInt32LE(8) !== wordCount || bytes.readUInt32LE(12) !== dimension) {
    return bad(
      `header says ${bytes.readUInt32LE(8)} words of dimension ${bytes.readUInt32LE(12)}, the table has ${wordCount} of ${dimension}`,
    );
  }
  const commonDirection = copyOut(bytes, headerBytes, dimension, Float64Array, 8, (at) => bytes.readDoubleLE(at));
  const startsAt = headerBytes + dimension * 8;
  const starts = copyOut(bytes, startsAt, wordCount + 1, Uint32Array, 4, (at) => bytes.readUInt32LE(at));
  const sortedRanks = copyOut(bytes, startsAt + (wordCount + 1) * 4, wordCount, Uint32Array, 4, (at) => bytes.readUInt32LE(at));
  if (starts[0] !== 0 || starts[wordCount] !== wordsLength) {
    return bad(`its word offsets run from ${starts[0]} to ${starts[wordCount]}, words.txt from 0 to ${wordsLength}`);
  }
  return { commonDirection, starts, sortedRanks };
}

/**
 * `count` values of a little-endian typed array from `offset`: one copy of the bytes (the
 * buffer need not be aligned for a view) where this machine is little-endian, else value by value.
 */
function copyOut<Values extends Float64Array | Uint32Array>(
  bytes: Buffer,
  offset: number,
  count: number,
  Kind: { new (buffer: ArrayBuffer): Values; new (length: number): Values },
  width: number,
  read: (at: number) => number,
): Values {
  if (littleEndian) {
    const start = bytes.byteOffset + offset;
    return new Kind(bytes.buffer.slice(start, start + count * width) as ArrayBuffer);
  }
  const values = new Kind(count);
  for (let position = 0; position < count; position += 1) values[position] = read(offset + position * width);
  return values;
}
