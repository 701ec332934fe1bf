import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLocalSearchPort } from "../open-local-search-port.js";

let directory: string;
const texts = [
  "Load balancing spreads requests over upstream nodes.",
  "The limit-req plugin holds a steady request rate.",
  "Upstream nodes can be weighted for load balancing.",
  "Health checks take an unhealthy node out of the upstream.",
];

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "term-share-"));
  const writer = await openLocalSearchPort({ directory, mode: "write" });
  await writer.upsert(
    texts.map((content, index) => ({ id: `d${index}#chunk-0`, content, metadata: { docId: `d${index}`, chunkIndex: 0 } })),
  );
  await writer.commit();
  await writer.close();
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("termShare", () => {
  it("is the share of records holding the text's rarest word, 0 for a word no record holds", async () => {
    const port = await openLocalSearchPort({ directory });
    expect(port.termShare("upstream")).toBe(0.75);
    expect(port.termShare("load balancing")).toBe(0.5);
    expect(port.termShare("limit-req")).toBe(0.25);
    expect(port.termShare("load balancing kubernetes")).toBe(0);
    expect(port.termShare("")).toBe(0);
    // A huge text is read up to 1,000 characters: quickly, and as its start.
    expect(port.termShare(`upstream ${"x".repeat(3_000_000)}`)).toBe(0.75);
    await port.close();
  });

  it("refuses what is not a string, naming termShare", async () => {
    const port = await openLocalSearchPort({ directory });
    expect(() => port.termShare(7 as never)).toThrow("termShare: expected a string");
    expect(() => port.termShare(7 as never)).toThrow(expect.objectContaining({ code: "invalid_argument" }));
    await port.close();
  });
});
