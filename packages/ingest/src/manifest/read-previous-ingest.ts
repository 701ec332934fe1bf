import { hashIngestOptions } from "./hash-ingest-options.js";
import { IngestError } from "../ingest-error.js";
import type { IngestManifest, IngestManifestDocument } from "./ingest-manifest.js";
import { readIngestManifest } from "./read-ingest-manifest.js";
import type { ResolvedIngestOptions } from "../options/resolve-ingest-options.js";

/** What the manifest of a data directory says of the earlier ingests, as this run uses it. */
export interface PreviousIngest {
  /** The manifest, or undefined when there is none (a first ingest). */
  manifest: IngestManifest | undefined;
  /** The hash of this run's options. */
  optionsHash: string;
  /** By `docId`: the documents the manifest records. */
  before: Record<string, IngestManifestDocument>;
  /** The documents whose unchanged file is not parsed again: none when the options changed, or on a rebuild. */
  reusable: Record<string, IngestManifestDocument>;
  /** The files with nothing to index whose unchanged file is not parsed again: none when the options changed. */
  reusableNoContent: NonNullable<IngestManifest["noContent"]>;
}

/**
 * Reads the manifest of `dataDirectory` for an ingest of `root` (absolute). Throws
 * `IngestError` (`different_ingest_root`) when it holds documents of another root and
 * `replace` is not true, and when it is corrupt.
 */
export async function readPreviousIngest(input: {
  dataDirectory: string;
  root: string;
  options: ResolvedIngestOptions;
  replace?: boolean | undefined;
  rebuild?: boolean | undefined;
}): Promise<PreviousIngest> {
  const { root } = input;
  const manifest = await readIngestManifest(input.dataDirectory);
  const previousRoot = manifest?.root;
  if (previousRoot !== undefined && previousRoot !== root && Object.keys(manifest?.documents ?? {}).length > 0 && input.replace !== true) {
    throw new IngestError({
      code: "different_ingest_root",
      path: input.dataDirectory,
      reason: `this data folder holds the knowledge base ingested from ${previousRoot}; ingesting ${root} into it would remove those documents. Use another data folder, or replace it on purpose`,
    });
  }
  const optionsHash = hashIngestOptions(input.options);
  const before = manifest?.documents ?? {};
  const reusable = manifest?.optionsHash === optionsHash && input.rebuild !== true ? before : {};
  const reusableNoContent = manifest?.optionsHash === optionsHash ? (manifest.noContent ?? {}) : {};
  return { manifest, optionsHash, before, reusable, reusableNoContent };
}
