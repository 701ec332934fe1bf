import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "../test/datasets.js";
import { expectWellFormed, ingestDataset } from "../test/ingest-dataset.js";
import { ingestFolder } from "./ingest-folder.js";

describe.skipIf(skipWithoutDatasets)(needsDatasets("ingestFolder on the real apisix documentation"), () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "ingest-datasets-"));
  });
  afterAll(async () => {
    await rm(dataDirectory, { recursive: true, force: true });
  });

  it("ingests all of apisix-docs (en and zh): every file chunked or reported; identity and breadcrumbs of real files", async () => {
    const { report, writer } = await ingestDataset("apisix-docs/docs", join(dataDirectory, "apisix"));
    expect(report.files).toBeGreaterThan(370);
    expectWellFormed(report, writer);

    const limitRequest = writer.recordsOf("en/latest/plugins/limit-req");
    expect(limitRequest.length).toBeGreaterThan(5);
    expect(limitRequest.map((record) => record.id)).toEqual(limitRequest.map((_, index) => `en/latest/plugins/limit-req#chunk-${index}`));
    expect(limitRequest[0]?.metadata).toMatchObject({
      docId: "en/latest/plugins/limit-req",
      chunkIndex: 0,
      source: "en/latest/plugins/limit-req.md",
      title: "Rate Limiting (limit-req)",
      breadcrumb: "Rate Limiting (limit-req) > Description",
      category: "en",
      keywords: ["Apache APISIX", "API Gateway", "Limit Request", "limit-req"],
    });
    const breadcrumbs = limitRequest.map((record) => record.metadata["breadcrumb"]);
    expect(breadcrumbs).toContain("Rate Limiting (limit-req) > Examples > Apply Rate Limiting by Remote Address");
    expect(breadcrumbs).toContain("Rate Limiting (limit-req) > Attributes");

    const chinese = writer.recordsOf("zh/latest/plugins/limit-req");
    expect(chinese[0]?.metadata).toMatchObject({ title: "limit-req", source: "zh/latest/plugins/limit-req.md", category: "zh" });
    expect(chinese.some((record) => /^limit-req > .*[\u4e00-\u9fff]/.test(String(record.metadata["breadcrumb"])))).toBe(true);

    const entry = report.entries.find((candidate) => candidate.id === "en/latest/plugins/limit-req");
    expect(entry).toMatchObject({ source: "en/latest/plugins/limit-req.md", title: "Rate Limiting (limit-req)", domain: "en" });

    // A second run over the same folder reads and hashes but writes nothing.
    writer.calls.length = 0;
    const again = await ingestFolder({
      root: join(datasetsDirectory, "apisix-docs/docs"),
      dataDirectory: join(dataDirectory, "apisix"),
      writer,
    });
    expect(again).toMatchObject({ parsed: 0, unchanged: report.parsed, chunksWritten: 0 });
    expect(writer.calls).toEqual([]);
  }, 120_000);
});
