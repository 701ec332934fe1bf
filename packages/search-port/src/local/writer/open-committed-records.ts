import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { MissingDataFileError } from "../errors/missing-data-file-error.js";
import type { FileRecords } from "../format/file-records.js";
import { openRecordFiles } from "../format/open-record-files.js";
import type { WrittenGeneration } from "./write-generation.js";

/** The content and metadata files of the generation just committed, opened; one that is missing already is a `CorruptIndexError`. */
export function openCommittedRecords(directory: string, written: WrittenGeneration): FileRecords {
  try {
    return openRecordFiles(directory, written.manifest, written.contentOffsets, written.metadataOffsets);
  } catch (error) {
    if (!(error instanceof MissingDataFileError)) throw error;
    throw new CorruptIndexError({ directory, reason: `${error.message}, just committed, is missing` });
  }
}
