import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import { openLocalSearchPort, type LocalSearchPort } from "@lookup-knowledge/search-port/local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commonTermTest, commonTermTestInScope } from "./common-term-test.js";

// A gateway's docs, written for this test: "load", "balancing" and "API" are everywhere, "health checks" in one record.
const contents = [
  ...Array.from(
    { length: 60 },
    (_, index) => `Route ${index} of the API sends its traffic through load balancing over the upstream nodes.`,
  ),
  "Health checks take an unhealthy node out of the upstream.",
  "The limit-req plugin limits the request rate with load balancing kept.",
  ...Array.from({ length: 60 }, (_, index) => `Plugin ${index} reads the request headers.`),
];
let directory: string;
let port: LocalSearchPort;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "common-term-"));
  const writer = await openLocalSearchPort({ directory, mode: "write" });
  await writer.upsert(
    contents.map((content, index) => ({
      id: `d${index}#chunk-0`,
      content,
      metadata: { docId: `d${index}`, chunkIndex: 0, tenant: index < 60 ? "b" : "a" },
    })),
  );
  await writer.commit();
  await writer.close();
  port = await openLocalSearchPort({ directory });
});
afterAll(async () => {
  await port.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("commonTermTest", () => {
  it("marks a title whose every word is ordinary vocabulary of the base, one word or several, never one with a rare word", () => {
    const isCommon = commonTermTest(port);
    expect(isCommon("Load Balancing")).toBe(true);
    expect(isCommon("upstream")).toBe(true);
    // All capitals looks like an identifier, but here it is the base's everyday word.
    expect(isCommon("API")).toBe(true);
    expect(isCommon("Health Checks")).toBe(false);
    // A word the index splits is specific as a whole, even when every part is common.
    expect(isCommon("limit-req")).toBe(false);
    expect(isCommon("upstream-nodes")).toBe(false);
    expect(isCommon("UpstreamNodes")).toBe(false);
    expect(isCommon("upstream-nodes traffic")).toBe(false);
  });

  it("R7: a title of ordinary words sets no category filter through the L0 index; a specific one does", () => {
    const l0 = createL0Index(
      [
        { id: "lb", source: "lb.md", title: "Load Balancing", domain: "routing" },
        { id: "hc", source: "hc.md", title: "Health Checks", domain: "operations" },
        { id: "api", source: "api.md", title: "API", domain: "reference" },
        { id: "lr", source: "lr.md", title: "limit-req", domain: "plugins" },
      ],
      { isCommonTerm: commonTermTest(port) },
    );
    const common = l0.match("How does load balancing pick a node?");
    expect(common.titles).toEqual(["Load Balancing"]);
    expect(common.domains).toEqual([]);
    expect(l0.match("When do health checks remove a node?").domains).toEqual(["operations"]);
    // A one-word title shaped like an identifier: only the specific one sets a filter.
    const api = l0.match("Which API call lists the routes?");
    expect(api.titles).toEqual(["API"]);
    expect(api.domains).toEqual([]);
    expect(l0.match("How do I configure limit-req?").domains).toEqual(["plugins"]);
  });

  it("issue 33: inside a scope, what is common is counted among the scope's records only", () => {
    const inScope = commonTermTestInScope(port);
    expect(inScope).toBeDefined();
    // Tenant b's 60 routes make "load balancing" everyday vocabulary of the whole index...
    expect(commonTermTest(port)("load balancing")).toBe(true);
    // ...but tenant a holds it once in 62 records: specific there, as in an index of a's records alone.
    expect(inScope?.({ tenant: "a" })("load balancing")).toBe(false);
    expect(inScope?.({ tenant: "b" })("load balancing")).toBe(true);
    expect(commonTermTestInScope({ termShare: () => 1 })).toBeUndefined();
  });
});
