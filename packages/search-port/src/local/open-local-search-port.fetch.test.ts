import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { canFetchRecords } from "../knowledge-record-reader.js";
import { build, open, records, useIndexFolder } from "./test/local-port-test-fixtures.js";

useIndexFolder();

describe("openLocalSearchPort: fetchRecords", () => {
  it("issue 12: reads records back by id, in the order asked, with undefined for an unknown id", async () => {
    const writer = await build();
    expect(canFetchRecords(writer)).toBe(true);
    const [second, missing, first] = await writer.fetchRecords(["refunds#chunk-1", "nope#chunk-0", "refunds#chunk-0"]);
    expect(missing).toBeUndefined();
    expect(first).toEqual({ id: "refunds#chunk-0", content: records[0]?.content, metadata: records[0]?.metadata });
    expect(second).toEqual({ id: "refunds#chunk-1", content: records[1]?.content, metadata: records[1]?.metadata });
  });

  it("issue 12: a writer sees its pending upserts and deletes; a reader sees the last commit", async () => {
    const writer = await build();
    await writer.commit();
    await writer.upsert([{ id: "extra#chunk-0", content: "An extra page.", metadata: { docId: "extra", chunkIndex: 0 } }]);
    await writer.deleteDocuments(["refunds"]);
    expect((await writer.fetchRecords(["extra#chunk-0", "refunds#chunk-0"])).map((record) => record?.id)).toEqual([
      "extra#chunk-0",
      undefined,
    ]);
    const reader = await open();
    expect((await reader.fetchRecords(["extra#chunk-0", "refunds#chunk-0"])).map((record) => record?.id)).toEqual([
      undefined,
      "refunds#chunk-0",
    ]);
    await writer.commit();
    const fresh = await open({ refreshIntervalMs: 0 });
    expect((await fresh.fetchRecords(["extra#chunk-0", "refunds#chunk-0"])).map((record) => record?.id)).toEqual([
      "extra#chunk-0",
      undefined,
    ]);
    await Promise.all([reader.close(), fresh.close(), writer.close()]);
  });

  it("issue 12: a returned record is a copy: changing it changes nothing stored", async () => {
    const writer = await build();
    const [record] = await writer.fetchRecords(["refunds#chunk-0"]);
    (record?.metadata as Record<string, unknown>)["title"] = "changed";
    const [again] = await writer.fetchRecords(["refunds#chunk-0"]);
    expect(again?.metadata["title"]).toBe("Refund policy");
  });

  it("issue 12: refuses ids that are not an array of non-empty strings, or more than 100, naming the problem", async () => {
    const writer = await build();
    const refused = async (ids: unknown) => {
      const error = await writer.fetchRecords(ids as string[]).catch((caught: unknown) => caught);
      expect(LookupKnowledgeError.isInstance(error)).toBe(true);
      return (error as LookupKnowledgeError).message;
    };
    expect(await refused("refunds#chunk-0")).toMatch(/ids must be an array/);
    expect(await refused(["ok", 3])).toMatch(/ids\[1\] must be a non-empty string/);
    expect(await refused(Array.from({ length: 101 }, (_, index) => `x${index}`))).toMatch(/at most 100 ids/);
    expect(await writer.fetchRecords([])).toEqual([]);
  });

  it("issue 12: a closed port refuses, and an aborted signal rejects with its reason", async () => {
    const writer = await build();
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    await expect(writer.fetchRecords(["refunds#chunk-0"], { signal: controller.signal })).rejects.toThrow("stop");
    await writer.close();
    await expect(writer.fetchRecords(["refunds#chunk-0"])).rejects.toMatchObject({ code: "index_closed" });
  });
});
