import { compareStrings } from "../keyed-records/compare-strings.js";
import type { FolderScan } from "../folder-scan/folder-scan.js";
import type { IngestManifest } from "../manifest/ingest-manifest.js";
import type { IngestReport } from "./ingest-report.js";
import type { FileOutcomeTally } from "./tally-file-outcomes.js";

/** The report of an ingest of `root` (as given) that began at `started` (`performance.now()`) and has just ended. */
export function buildIngestReport(input: {
  root: string;
  scan: FolderScan;
  tally: FileOutcomeTally;
  chunksWritten: number;
  next: IngestManifest;
  started: number;
}): IngestReport {
  const { tally } = input;
  return {
    root: input.root,
    files: input.scan.files.length,
    parsed: tally.parsed.length,
    unchanged: tally.unchanged,
    added: tally.added,
    changed: tally.changed,
    removed: tally.removed.length,
    chunksWritten: input.chunksWritten,
    skipped: input.scan.skipped,
    failed: tally.failed,
    noContent: Object.values(tally.noContent)
      .map((file) => file.source)
      .sort(compareStrings),
    entries: Object.values(input.next.documents).map((document) => document.entry),
    durationMs: performance.now() - input.started,
  };
}
