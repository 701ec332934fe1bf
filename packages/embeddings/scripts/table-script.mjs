// What the two table scripts share: failing with a message, the folder they write to, writing
// data files with their checksums, and the part of NOTICE each one owns.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** This package's folder. */
export const packageRoot = fileURLToPath(new URL("..", import.meta.url));

/** Where the CC-CEDICT part of NOTICE starts; `build-gloss-table.mjs` writes from here on, `build-word-table.mjs` before. */
export const glossNoticeHeading = "3. CC-CEDICT";

/** Prints `message` and ends the process with status 1. */
export function fail(message) {
  console.error(message);
  process.exit(1);
}

/** The folder a script writes to: `--out <folder>` when given, else this package's `data/`; `usage` when `--out` has no folder. */
export function outputFolder(argumentsGiven, usage) {
  const outFlag = argumentsGiven.indexOf("--out");
  if (outFlag === -1) return { outFolder: join(packageRoot, "data"), custom: false };
  return { outFolder: resolve(argumentsGiven[outFlag + 1] ?? fail(usage)), custom: true };
}

/** Writes each file into `folder` and returns their sizes and SHA-256 (hex), as a table's manifest records them (`word-vectors.bin` with its blocks', `vectorBlocks`). */
export function writeDataFiles(folder, files) {
  mkdirSync(folder, { recursive: true });
  const recorded = {};
  for (const [name, bytes] of Object.entries(files)) {
    writeFileSync(join(folder, name), bytes);
    recorded[name] = { bytes: bytes.byteLength, sha256: createHash("sha256").update(bytes).digest("hex") };
    if (name === "word-vectors.bin") Object.assign(recorded[name], vectorBlocks(bytes));
  }
  return recorded;
}

/** Bytes per checked block of word-vectors.bin: the loader reads and checks the blocks a text's words need (src/lazy-word-vectors.ts). */
export const wordVectorBlockBytes = 65_536;

/** The block size and the SHA-256 (hex) of each block of `bytes`, as word-table.json records them for word-vectors.bin. */
export function vectorBlocks(bytes) {
  const blockSha256 = [];
  for (let start = 0; start < bytes.byteLength; start += wordVectorBlockBytes) {
    blockSha256.push(
      createHash("sha256")
        .update(bytes.subarray(start, start + wordVectorBlockBytes))
        .digest("hex"),
    );
  }
  return { blockBytes: wordVectorBlockBytes, blockSha256 };
}

/** NOTICE as it is now (empty when there is none), cut where its CC-CEDICT part starts (`glossSection` "" when it has none). */
export function splitNotice(path) {
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch {}
  const start = text.indexOf(glossNoticeHeading);
  return start === -1 ? { head: text, glossSection: "" } : { head: text.slice(0, start), glossSection: text.slice(start) };
}
