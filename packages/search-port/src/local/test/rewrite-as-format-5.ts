import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { IndexManifest } from "../format/index-manifest.js";
import { rewriteAsFormat6 } from "./rewrite-as-format-6.js";
import { recomputeChecksums } from "./recompute-checksums.js";

/**
 * Test helper: rewrites the committed format-6 index in `directory` as format 5 left it (no
 * `facets` file of metadata key counts), so tests can prove that such indexes are still read
 * and continued. Not exported from the package.
 */
export function rewriteAsFormat5(directory: string): void {
  if ((JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as { formatVersion: number }).formatVersion === 7) {
    rewriteAsFormat6(directory);
  }
  const manifest = JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as IndexManifest;
  const { facets } = manifest.files;
  if (facets === undefined) throw new Error(`${directory} holds no index of format 6`);
  rmSync(join(directory, facets.name));
  recomputeChecksums(directory, (edited) => {
    delete edited.files.facets;
    edited.formatVersion = 5;
  });
}
