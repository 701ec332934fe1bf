import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetsDirectory, needsDataset, skipWithoutDataset } from "../test/datasets.js";
import { createRecordingKnowledgeWriter } from "../test/recording-knowledge-writer.js";
import { ingestFolder } from "./ingest-folder.js";

/**
 * Every record (id, content, metadata in its key order) of a real tree, sorted by id, and the
 * report's knowledge entries, as SHA-256 digests: what a change made for speed must leave
 * exactly as it was. The digests were taken with the ingest of commit deddf51, before the
 * speed-ups of issue 36 item 6; a change that means to alter chunks updates them and says why.
 */
const pinned = {
  "apisix-docs/docs/en": {
    records: 2518,
    recordsSha256: "3ff8073b15979428b2f676598d58410b77f5a430371bb6feff1fab53d2e6d547",
    entriesSha256: "442bb6b94a0c3dee39dc86db98ebffbeb6f0c2e12753b60bb46c868fd2f07902",
  },
  "apisix-docs/docs": {
    records: 4724,
    recordsSha256: "51c5a02ee157b583792a3500edbf3e23d8190e38af209e45a8a286052a1dd5db",
    entriesSha256: "aee16a0ccfa3d28aef9e424b96e7d653f2cdb0d43bc599939c85af845ee4f1e5",
  },
};

describe.skipIf(skipWithoutDataset("apisix-docs"))(needsDataset("apisix-docs", "ingestFolder's records of a real tree, pinned"), () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "ingest-pinned-"));
  });
  afterAll(async () => {
    await rm(dataDirectory, { recursive: true, force: true });
  });

  for (const [tree, expected] of Object.entries(pinned)) {
    it(`issue 36 item 6: ${tree} gives the same chunks, ids, metadata and entries as before the ingest speed-ups`, async () => {
      const writer = createRecordingKnowledgeWriter();
      const report = await ingestFolder({
        root: join(datasetsDirectory, tree),
        dataDirectory: join(dataDirectory, tree.replaceAll("/", "-")),
        writer,
      });
      const records = createHash("sha256");
      for (const id of [...writer.records.keys()].sort()) {
        const record = writer.records.get(id);
        records.update(`${JSON.stringify([record?.id, record?.content, record?.metadata])}\n`);
      }
      expect({
        records: writer.records.size,
        recordsSha256: records.digest("hex"),
        entriesSha256: createHash("sha256").update(JSON.stringify(report.entries)).digest("hex"),
      }).toEqual(expected);
      expect(report.failed).toEqual([]);
    }, 120_000);
  }
});
