import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { IndexManifest } from "../format/index-manifest.js";
import { rewriteAsFormat5 } from "./rewrite-as-format-5.js";
import { recomputeChecksums } from "./recompute-checksums.js";

/**
 * Test helper: rewrites the committed format-5 index in `directory` as format 4 left it (no
 * bounds file, the block checksums SHA-256), so tests can prove that such indexes are still
 * read, with the same results, and continued. Not exported from the package.
 */
export function rewriteAsFormat4(directory: string): void {
  if ((JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as { formatVersion: number }).formatVersion >= 6) {
    rewriteAsFormat5(directory);
  }
  const manifest = JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as IndexManifest;
  const { bounds, blocks } = manifest.files;
  if (bounds === undefined || blocks === undefined) throw new Error(`${directory} holds no index of format 5`);
  rmSync(join(directory, bounds.name));
  recomputeChecksums(directory, (edited) => {
    delete edited.files.bounds;
    delete edited.blockHash;
    delete edited.boundBlockPostings;
    edited.formatVersion = 4;
  });
}
