// The word index (`data/word-index.bin`): what the embedder needs from the word table that it
// would otherwise work out at every start (issue 36 item 5: ~200 ms of a cold query went to
// splitting words.txt into a Map and summing the common direction over all 50,000 vectors).
// Derived from word-vectors.bin and words.txt alone; build-word-table.mjs writes it with them
// and build-word-index.mjs rewrites it for a table already in a folder.
//
// Layout: "LKWI", uint32 LE format version, uint32 LE word count, uint32 LE dimension; the
// common direction as float64 LE (dimension values); the uint32 LE byte offset in words.txt
// where each word's line starts (word count + 1 values, the last one the file's length); then
// the uint32 LE ranks of the words in ascending order of their UTF-8 bytes (for a binary search).

export const wordIndexMagic = "LKWI";
export const wordIndexFormatVersion = 1;
export const wordIndexLayout =
  `"${wordIndexMagic}", uint32 LE format version, uint32 LE word count, uint32 LE dimension; the common direction ` +
  "(float64 LE, one per dimension); uint32 LE offset in words.txt where each word's line starts (word count + 1, " +
  "the last one the file's length); uint32 LE ranks in ascending order of the words' UTF-8 bytes";
const vectorsHeaderBytes = 16;
/** `commonRank` of src/frequency-weight.ts (a test holds the two together). */
export const commonRank = 300;

/** The bytes of word-index.bin for a table's word-vectors.bin and words.txt bytes. */
export function wordIndexBytes(vectorBytes, wordBytes, wordCount, dimension) {
  const scales = new Float32Array(wordCount);
  for (let rank = 0; rank < wordCount; rank += 1) scales[rank] = vectorBytes.readFloatLE(vectorsHeaderBytes + rank * 4);
  const values = new Int8Array(vectorBytes.buffer, vectorBytes.byteOffset + vectorsHeaderBytes + wordCount * 4, wordCount * dimension);

  // The direction every averaged text vector leans towards: the sum of all word vectors, each
  // weighted by its expected frequency (Zipf: 1 / (rank + 1)) and by its frequency
  // down-weighting, as a unit vector. The order of the sums is the embedder's, so the float64
  // values are the ones it used to work out at start, bit for bit.
  const direction = new Float64Array(dimension);
  for (let rank = 0; rank < wordCount; rank += 1) {
    const weight = (1 / (rank + 1)) * ((rank + 1) / (rank + 1 + commonRank)) * scales[rank];
    const offset = rank * dimension;
    for (let column = 0; column < dimension; column += 1) direction[column] = direction[column] + weight * values[offset + column];
  }
  let norm = 0;
  for (const value of direction) norm += value * value;
  norm = Math.sqrt(norm);
  for (let column = 0; column < dimension; column += 1) direction[column] = direction[column] / norm;

  const starts = new Uint32Array(wordCount + 1);
  let line = 0;
  for (let position = 0; position < wordBytes.length && line < wordCount; position += 1) {
    if (wordBytes[position] === 0x0a) {
      line += 1;
      starts[line] = position + 1;
    }
  }
  if (line !== wordCount || starts[wordCount] !== wordBytes.length) {
    throw new Error(`words.txt has ${line} lines (or text after the last one) where the table has ${wordCount} words`);
  }
  const word = (rank) => wordBytes.subarray(starts[rank], starts[rank + 1] - 1);
  const sorted = Uint32Array.from({ length: wordCount }, (_, rank) => rank).sort((left, right) => Buffer.compare(word(left), word(right)));
  for (let position = 1; position < wordCount; position += 1) {
    if (Buffer.compare(word(sorted[position - 1]), word(sorted[position])) === 0) {
      throw new Error(`words.txt holds ${JSON.stringify(word(sorted[position]).toString("utf8"))} twice`);
    }
  }

  const bytes = Buffer.alloc(16 + dimension * 8 + (wordCount + 1) * 4 + wordCount * 4);
  bytes.write(wordIndexMagic, 0, "latin1");
  bytes.writeUInt32LE(wordIndexFormatVersion, 4);
  bytes.writeUInt32LE(wordCount, 8);
  bytes.writeUInt32LE(dimension, 12);
  let at = 16;
  for (const value of direction) at = bytes.writeDoubleLE(value, at);
  for (const start of starts) at = bytes.writeUInt32LE(start, at);
  for (const rank of sorted) at = bytes.writeUInt32LE(rank, at);
  return bytes;
}
