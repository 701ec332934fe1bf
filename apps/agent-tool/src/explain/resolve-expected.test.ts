import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeIngestManifest } from "@lookup-knowledge/ingest/manifest";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveExpected } from "./resolve-expected.js";

describe("resolveExpected", () => {
  let stateDirectory: string;
  // A port that cannot read records: only the manifest is consulted.
  const port = {} as KnowledgeSearchPort;

  beforeEach(async () => {
    stateDirectory = await mkdtemp(join(tmpdir(), "resolve-expected-"));
    const entry = (id: string) => ({ id, source: `${id}.md` });
    await writeIngestManifest(stateDirectory, {
      version: 1,
      optionsHash: "o",
      documents: { plain: { source: "plain.md", hash: "h", chunkCount: 2, entry: entry("plain") } },
    });
  });

  afterEach(async () => {
    await rm(stateDirectory, { recursive: true, force: true });
  });

  it("finds a document of the manifest by its source", async () => {
    expect(await resolveExpected({ expected: "plain.md", port, stateDirectory })).toMatchObject({ docId: "plain", chunkCount: 2 });
  });

  it("issue 36 item 5 review: an expected document named like an object's property (constructor, toString) the manifest does not hold is unknown, not Object's", async () => {
    for (const expected of ["constructor", "toString.md", "__proto__"]) {
      const target = await resolveExpected({ expected, port, stateDirectory });
      expect(target.docId, expected).toBe(expected.replace(/\.md$/, ""));
      expect(target.chunkCount, expected).toBeUndefined();
    }
  });
});
