import { join } from "node:path";
import { expect } from "vitest";
import { ingestFolder } from "../src/ingest-folder.js";
import type { IngestReport } from "../src/report/ingest-report.js";
import { datasetsDirectory } from "./datasets.js";
import { createRecordingKnowledgeWriter } from "./recording-knowledge-writer.js";
import type { RecordingKnowledgeWriter } from "./recording-knowledge-writer.js";

/** Ingests a whole real dataset (under ../shared/datasets) into an in-memory writer and logs the speed. */
export async function ingestDataset(
  relativeRoot: string,
  dataDirectory: string,
): Promise<{ report: IngestReport; writer: RecordingKnowledgeWriter }> {
  const writer = createRecordingKnowledgeWriter();
  const report = await ingestFolder({ root: join(datasetsDirectory, relativeRoot), dataDirectory, writer });
  const perSecond = Math.round((report.chunksWritten / report.durationMs) * 1000);
  console.log(
    `${relativeRoot}: ${report.files} files, ${report.chunksWritten} chunks, ${report.failed.length} failed, ${Math.round(report.durationMs)} ms, ${perSecond} chunks/s`,
  );
  return { report, writer };
}

/** Every file chunked or reported (failed, or with no content), every record well formed (identity, breadcrumb under the title, content). */
export function expectWellFormed(report: IngestReport, writer: RecordingKnowledgeWriter): void {
  expect(report.parsed + report.noContent.length + report.failed.length).toBe(report.files);
  expect(report.entries).toHaveLength(report.parsed);
  expect(writer.records.size).toBe(report.chunksWritten);
  for (const failure of report.failed) expect(failure.reason).not.toBe("");
  for (const record of writer.records.values()) {
    expect(record.content.trim()).not.toBe("");
    expect(record.id).toBe(`${String(record.metadata["docId"])}#chunk-${String(record.metadata["chunkIndex"])}`);
    expect(String(record.metadata["breadcrumb"]).startsWith(String(record.metadata["title"]))).toBe(true);
  }
}
