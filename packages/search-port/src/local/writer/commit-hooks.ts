import type { StoredManifest } from "../format/segmented-manifest.js";
import type { MergePolicy } from "../segments/choose-merges.js";

/** Test hooks into a commit (internal). */
export interface CommitHooks {
  /** Runs after the data files are written, before the manifest switches to them. */
  afterDataFiles?: (generation: number) => void | Promise<void>;
  /** Runs right after the manifest switched, before the writer opens the segments it wrote. */
  afterManifest?: (manifest: StoredManifest) => void;
  /** Records a writer holds in memory before it writes them as a segment (default: `defaultFlushRecords`). */
  flushRecords?: number;
  /** The merge policy commits follow (default: `defaultMergePolicy`). */
  mergePolicy?: MergePolicy;
}
