#!/usr/bin/env node
// Writes data/word-index.bin for the word table already in `data/` (or in <folder>), and
// records it in word-table.json with the block list of word-vectors.bin: run after changing the
// word table by hand or with an older build-word-table.mjs. build-word-table.mjs writes both itself.
//
//   node scripts/build-word-index.mjs [<folder>]
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { packageRoot, vectorBlocks, writeDataFiles } from "./table-script.mjs";
import { wordIndexBytes, wordIndexLayout } from "./word-index.mjs";

const folder = resolve(process.argv[2] ?? join(packageRoot, "data"));
const manifestPath = join(folder, "word-table.json");
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
const vectors = readFileSync(join(folder, "word-vectors.bin"));
const index = wordIndexBytes(vectors, readFileSync(join(folder, "words.txt")), manifest.wordCount, manifest.dimension);
const written = writeDataFiles(folder, { "word-index.bin": index });
manifest.layout["word-index.bin"] = wordIndexLayout;
manifest.files = { ...manifest.files, ...written };
manifest.files["word-vectors.bin"] = { ...manifest.files["word-vectors.bin"], ...vectorBlocks(vectors) };
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
console.log(
  `wrote ${join(folder, "word-index.bin")}: ${written["word-index.bin"].bytes} bytes, sha256 ${written["word-index.bin"].sha256}`,
);
