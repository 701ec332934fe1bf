import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { IndexManifest } from "../format/index-manifest.js";
import type { SegmentedManifest } from "../format/segmented-manifest.js";
import { recomputeChecksums } from "./recompute-checksums.js";

/**
 * Test helper: rewrites the committed index of format 7 in `directory`, when it is one segment
 * without deletions, as format 6 left it (one generation: its data files and counts file
 * listed in the manifest itself), so tests can prove that such indexes are still read and
 * continued. Not exported from the package.
 */
export function rewriteAsFormat6(directory: string): void {
  const manifest = JSON.parse(readFileSync(join(directory, "manifest.json"), "utf8")) as SegmentedManifest;
  const [segment, ...others] = manifest.segments;
  if (manifest.formatVersion !== 7 || segment === undefined || others.length > 0 || segment.deleted > 0) {
    throw new Error(`${directory} holds no index of format 7 with one segment and no deletions`);
  }
  recomputeChecksums(directory, (edited) => {
    const { segments: _, checksum: __, files, ...fields } = edited as unknown as SegmentedManifest;
    const generation: IndexManifest = {
      ...fields,
      formatVersion: 6,
      terms: segment.terms,
      postings: segment.postings,
      files: { ...segment.files, facets: files.facets },
    };
    for (const key of Object.keys(edited)) delete (edited as unknown as Record<string, unknown>)[key];
    Object.assign(edited, generation);
  });
}
