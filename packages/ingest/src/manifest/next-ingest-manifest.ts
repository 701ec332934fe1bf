import type { IngestManifest } from "./ingest-manifest.js";
import type { PreviousIngest } from "./read-previous-ingest.js";
import { sortByKey } from "../keyed-records/sort-by-key.js";
import type { FileOutcomeTally } from "../report/tally-file-outcomes.js";

/**
 * The manifest an ingest of `root` leaves (documents and files with no content sorted by
 * `docId`), and whether it must be written: whether anything it records differs from the
 * manifest read before (a first ingest, another root or options, documents parsed, removed or
 * failed, files with no content parsed or gone).
 */
export function nextIngestManifest(
  root: string,
  previous: PreviousIngest,
  tally: FileOutcomeTally,
): { next: IngestManifest; dirty: boolean } {
  const { manifest, optionsHash } = previous;
  const { documents, noContent, noContentParsed, parsed, removed, failed } = tally;
  const next: IngestManifest = {
    version: 1,
    root,
    optionsHash,
    documents: sortByKey(documents),
    ...(Object.keys(noContent).length === 0 ? {} : { noContent: sortByKey(noContent) }),
  };
  const noContentChanged = noContentParsed > 0 || Object.keys(manifest?.noContent ?? {}).some((docId) => noContent[docId] === undefined);
  const dirty =
    manifest === undefined ||
    manifest.root !== root ||
    manifest.optionsHash !== optionsHash ||
    parsed.length > 0 ||
    removed.length > 0 ||
    failed.length > 0 ||
    noContentChanged;
  return { next, dirty };
}
