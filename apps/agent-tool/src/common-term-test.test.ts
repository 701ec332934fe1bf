import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import { openLocalSearchPort, type LocalSearchPort } from "@lookup-knowledge/search-port/local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commonTermTest } from "./common-term-test.js";

// A gateway's docs, written for this test: "load" and "balancing" are everywhere, "health checks" in one record.
const contents = [
  ...Array.from({ length: 60 }, (_, index) => `Route ${index} sends its traffic through load balancing over the upstream nodes.`),
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
    contents.map((content, index) => ({ id: `d${index}#chunk-0`, content, metadata: { docId: `d${index}`, chunkIndex: 0 } })),
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
  it("marks a phrase whose every word is ordinary vocabulary of the base, never a single word or a phrase with a rare word", () => {
    const isCommon = commonTermTest(port);
    expect(isCommon("Load Balancing")).toBe(true);
    expect(isCommon("Health Checks")).toBe(false);
    expect(isCommon("limit-req")).toBe(false);
    expect(isCommon("upstream")).toBe(false);
  });

  it("R7: a title of ordinary words sets no category filter through the L0 index; a specific one does", () => {
    const l0 = createL0Index(
      [
        { id: "lb", source: "lb.md", title: "Load Balancing", domain: "routing" },
        { id: "hc", source: "hc.md", title: "Health Checks", domain: "operations" },
      ],
      { isCommonTerm: commonTermTest(port) },
    );
    const common = l0.match("How does load balancing pick a node?");
    expect(common.titles).toEqual(["Load Balancing"]);
    expect(common.domains).toEqual([]);
    expect(l0.match("When do health checks remove a node?").domains).toEqual(["operations"]);
  });
});
