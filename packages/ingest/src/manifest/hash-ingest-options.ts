import type { ResolvedIngestOptions } from "../options/resolve-ingest-options.js";
import { sha256 } from "./sha256.js";

/**
 * Bumped whenever parsing, cleaning or chunking changes what a file turns into, so a new version re-ingests everything.
 * 2: Hugo shortcodes cleaned; a document without body text gets a chunk of its frontmatter title and description.
 */
const chunkingRulesVersion = 2;

/**
 * The hash of the options a folder was chunked with (and of the chunking rules version),
 * kept in the manifest: when it changes, every file is parsed again. Options that only
 * choose which files are read (`followSymlinks`) are left out: they add or remove documents
 * and leave the others as they are.
 */
export function hashIngestOptions(options: ResolvedIngestOptions): string {
  const { followSymlinks: _followSymlinks, ...chunking } = options;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(chunking).sort()) sorted[key] = chunking[key as keyof typeof chunking];
  return sha256(JSON.stringify({ chunkingRulesVersion, options: sorted }));
}
