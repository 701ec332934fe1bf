import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { needsDatasets, skipWithoutDatasets } from "../test/datasets.js";
import { expectWellFormed, ingestDataset } from "../test/ingest-dataset.js";

describe.skipIf(skipWithoutDatasets)(needsDatasets("ingestFolder on the real TiDB documentation (Chinese)"), () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "ingest-datasets-"));
  });
  afterAll(async () => {
    await rm(dataDirectory, { recursive: true, force: true });
  });

  it("ingests all of tidb-docs-cn: every file chunked or reported; identity and breadcrumbs of real files", async () => {
    const { report, writer } = await ingestDataset("tidb-docs-cn", join(dataDirectory, "tidb"));
    expect(report.files).toBeGreaterThan(1200);
    expectWellFormed(report, writer);

    const configuration = writer.recordsOf("tidb-configuration-file");
    expect(configuration.map((record) => record.metadata["chunkIndex"])).toEqual(configuration.map((_, index) => index));
    expect(configuration[0]?.metadata).toMatchObject({
      docId: "tidb-configuration-file",
      source: "tidb-configuration-file.md",
      title: "TiDB 配置文件描述",
    });
    expect(configuration[0]?.metadata["category"]).toBeUndefined();
    expect(configuration.map((record) => record.metadata["breadcrumb"])).toContain("TiDB 配置文件描述 > log > level");

    const quickstart = writer.recordsOf("ai/quickstart-via-sql");
    expect(quickstart[0]?.metadata).toMatchObject({ category: "ai", title: "通过 SQL 快速上手 TiDB + AI" });
    expect(quickstart.map((record) => record.metadata["breadcrumb"])).toContain(
      "通过 SQL 快速上手 TiDB + AI > 快速上手 > 步骤 1. 连接到 TiDB",
    );

    const entry = report.entries.find((candidate) => candidate.id === "tidb-configuration-file");
    expect(entry?.entities).toContain("/docs-cn/dev/tidb-configuration-file/");
  }, 120_000);
});
