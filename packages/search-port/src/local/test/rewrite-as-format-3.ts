import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IndexFileEntry, IndexManifest } from "../format/index-manifest.js";
import { rewriteAsFormat5 } from "./rewrite-as-format-5.js";

/**
 * Test helper: rewrites the committed index of format 4 or 5 in `directory` as format 3 left it
 * (keys as JSON, no term ends in the postings file, no block checksums, no stored bounds), so tests can prove
 * that older indexes are still read and continued. Not exported from the package.
 */
export function rewriteAsFormat3(directory: string): void {
  if ((JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as { formatVersion: number }).formatVersion >= 6) {
    rewriteAsFormat5(directory);
  }
  const path = join(directory, "manifest.json");
  const manifest = JSON.parse(readFileSync(path, "utf8")) as IndexManifest;
  const { files } = manifest;
  const count = manifest.chunks;
  const keys = readFileSync(join(directory, files.keys.name));
  const view = new DataView(keys.buffer, keys.byteOffset, keys.byteLength);
  const ids: string[] = [];
  const docIds: Array<string | null> = [];
  const idsAt = 9 * count;
  const docIdsAt = idsAt + (count === 0 ? 0 : view.getUint32(4 * (count - 1), true));
  for (let slot = 0, idStart = 0, docIdStart = 0; slot < count; slot += 1) {
    const idEnd = view.getUint32(4 * slot, true);
    const docIdEnd = view.getUint32(4 * (count + slot), true);
    ids.push(keys.subarray(idsAt + idStart, idsAt + idEnd).toString("utf8"));
    docIds.push(keys[8 * count + slot] === 1 ? null : keys.subarray(docIdsAt + docIdStart, docIdsAt + docIdEnd).toString("utf8"));
    idStart = idEnd;
    docIdStart = docIdEnd;
  }
  const write = (old: IndexFileEntry, name: string, data: Buffer): IndexFileEntry => {
    rmSync(join(directory, old.name));
    writeFileSync(join(directory, name), data);
    return { name, bytes: data.length, sha256: createHash("sha256").update(data).digest("hex") };
  };
  files.keys = write(files.keys, files.keys.name.replace(/\.bin$/, ".json"), Buffer.from(JSON.stringify({ ids, docIds })));
  const postings = readFileSync(join(directory, files.postings.name));
  files.postings = write(files.postings, files.postings.name, postings.subarray(0, postings.length - 4 * manifest.terms));
  for (const kind of ["blocks", "bounds"] as const) {
    const entry = files[kind];
    if (entry !== undefined) rmSync(join(directory, entry.name));
    delete files[kind];
  }
  delete manifest.blockBytes;
  delete manifest.blockHash;
  delete manifest.boundBlockPostings;
  manifest.formatVersion = 3;
  delete manifest.checksum;
  writeFileSync(`${path}.edit`, JSON.stringify(manifest));
  renameSync(`${path}.edit`, path);
}
