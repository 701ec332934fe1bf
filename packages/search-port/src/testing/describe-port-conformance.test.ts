import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { readDocId } from "@lookup-knowledge/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalSearchPort } from "../local/index.js";
import { matchesFilter } from "../matches-filter.js";
import { createInMemorySearchPort } from "./create-in-memory-search-port.js";
import { describePortConformance } from "./describe-port-conformance.js";
import { portConformanceFilterCases, portConformanceRecords } from "./port-conformance-records.js";

const test = { describe, it, beforeAll, afterAll };

describePortConformance(
  "in-memory reference port",
  () => {
    const port = createInMemorySearchPort();
    return {
      port,
      writer: {
        async upsert(records) {
          port.upsert(records);
        },
        async deleteDocuments(docIds) {
          let removed = 0;
          for (const docId of new Set(docIds)) removed += port.deleteByDocId(docId);
          return removed;
        },
      },
    };
  },
  { test },
);

const embeddings = createOfflineEmbeddings();

describePortConformance(
  "embedded local port (hybrid, minScore 0)",
  async () => {
    const directory = await mkdtemp(join(tmpdir(), "lookup-knowledge-conformance-"));
    const port = await openLocalSearchPort({ directory, mode: "write", embeddings, minScore: 0 });
    return {
      port,
      writer: port,
      async close() {
        await port.close();
        await rm(directory, { recursive: true, force: true });
      },
    };
  },
  { test },
);

describe("the conformance records", () => {
  it("R13: give every filter case a non-trivial answer set, so that a port ignoring filters fails", () => {
    const all = portConformanceRecords.length;
    const trivial = ["$in with an empty list matches nothing", "$nin with an empty list matches everything", "a value no record holds"];
    for (const { name, filter } of portConformanceFilterCases) {
      if (trivial.includes(name)) continue;
      const passing = portConformanceRecords.filter((record) => matchesFilter(record.metadata, filter)).length;
      expect(passing, name).toBeGreaterThan(0);
      expect(passing, name).toBeLessThan(all);
    }
  });

  it("hold ids of the form docId#chunk-N that match their metadata", () => {
    for (const record of portConformanceRecords) {
      expect(record.id).toBe(`${readDocId(record.metadata)}#chunk-${String(record.metadata["chunkIndex"])}`);
    }
  });
});
