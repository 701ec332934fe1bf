import type { IngestReport } from "@lookup-knowledge/ingest";
import { describe, expect, it } from "vitest";
import { formatIngestReport } from "./ingest-command.js";

const report: IngestReport = {
  root: "/docs",
  files: 4,
  parsed: 2,
  added: 2,
  changed: 0,
  unchanged: 0,
  removed: 0,
  chunksWritten: 3,
  noContent: ["empty.md", "evil\u001b[2J.md"],
  failed: [],
  entries: [],
  durationMs: 1000,
};

describe("formatIngestReport", () => {
  it("counts and names the files with no content, so the files add up, with control characters of a path made harmless", () => {
    const text = formatIngestReport(report);
    expect(text).toContain("4 scanned: 2 added, 0 changed, 0 unchanged, 0 removed, 2 with no content, 0 skipped");
    expect(text).toContain("files with no content");
    expect(text).toContain("    empty.md");
    expect(text).toContain("    evil\uFFFD[2J.md");
    expect(text).not.toContain("\u001b");
  });
});
