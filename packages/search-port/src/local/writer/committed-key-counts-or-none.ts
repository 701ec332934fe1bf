import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { readCommittedKeyCounts } from "../format/key-counts-file.js";
import type { LocalIndexState } from "../snapshot/local-index-state.js";
import type { MetadataKeyCounts } from "../snapshot/metadata-key-counts.js";

/**
 * The last commit's metadata key counts, for a commit to update by what changed since; none
 * (so every record is counted) when it kept none, or when its file is gone or damaged: a
 * writer that took over the lock may have removed it (this commit is then refused at the
 * manifest switch), and a recount replaces a damaged one.
 */
export function committedKeyCountsOrNone(directory: string, state: LocalIndexState): MetadataKeyCounts | undefined {
  try {
    return readCommittedKeyCounts(directory, state.manifest);
  } catch (error) {
    if (CorruptIndexError.isInstance(error)) return undefined;
    throw error;
  }
}
