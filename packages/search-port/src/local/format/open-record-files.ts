import { closeSync, fstatSync } from "node:fs";
import { checkFileEntry } from "./check-file-entry.js";
import { FileRecords, descriptorSource, memoryOffsets } from "./file-records.js";
import type { IndexFileEntry, IndexManifest } from "./index-manifest.js";
import { openExistingFile } from "./open-existing-file.js";
import { verifyDataFile } from "./verify-data-file.js";

/**
 * Opens the content and metadata files of `manifest` for reading on demand. Throws
 * `MissingDataFileError` when one is missing and `CorruptIndexError` when its size (or,
 * with `verify`, its checksum) differs from the manifest; nothing stays open when it throws.
 * A writer opening the files it has just written and hashed passes no `verify`.
 */
export function openRecordFiles(
  directory: string,
  manifest: IndexManifest,
  contentOffsets: Float64Array,
  metadataOffsets: Float64Array,
  verify = false,
): FileRecords {
  const { content, metadata } = manifest.files;
  const contentDescriptor = openData(directory, content, verify);
  try {
    const metadataDescriptor = openData(directory, metadata, verify);
    return new FileRecords(directory, {
      content: descriptorSource(contentDescriptor, directory, content.name),
      metadata: descriptorSource(metadataDescriptor, directory, metadata.name),
      contentName: content.name,
      metadataName: metadata.name,
      count: contentOffsets.length - 1,
      offsets: memoryOffsets(contentOffsets, metadataOffsets),
      metadataSha256: metadata.sha256,
    });
  } catch (error) {
    closeSync(contentDescriptor);
    throw error;
  }
}

function openData(directory: string, entry: IndexFileEntry, verify: boolean): number {
  const descriptor = openExistingFile(directory, entry.name);
  try {
    checkFileEntry(directory, entry, fstatSync(descriptor).size, undefined);
    if (verify) verifyDataFile(descriptor, directory, entry);
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
  return descriptor;
}
