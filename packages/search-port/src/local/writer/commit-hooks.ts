import type { IndexManifest } from "../format/index-manifest.js";

/** Test hooks into a commit (internal). */
export interface CommitHooks {
  /** Runs after the data files are written, before the manifest switches to them. */
  afterDataFiles?: (generation: number) => void | Promise<void>;
  /** Runs right after the manifest switched, before the writer opens the new content and metadata files. */
  afterManifest?: (manifest: IndexManifest) => void;
}
