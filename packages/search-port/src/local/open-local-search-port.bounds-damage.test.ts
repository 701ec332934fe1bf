import { appendFileSync, readFileSync, readdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { CorruptIndexError } from "./errors/corrupt-index-error.js";
import { checksumBlockBytes } from "./format/block-checksums.js";
import type { IndexManifest } from "./format/index-manifest.js";
import { readManifest } from "./format/read-manifest.js";
import { scoreBoundsLayout, wholeBoundsBytes } from "./lexical/stored-score-bounds.js";
import { build, directory, open, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { rewriteAsFormat6 } from "./test/rewrite-as-format-6.js";
import { random } from "./test/seeded-random-test-fixtures.js";

useIndexFolder();

const vocabulary = Array.from({ length: 20000 }, (_, index) => `w${index}k`);

/** Records over a wide vocabulary with Zipf-like odds: a bounds file of several checksum blocks. */
function records(count: number): KnowledgeRecord[] {
  const next = random(3607);
  return Array.from({ length: count }, (_, index) => {
    const words = Array.from({ length: 20 + Math.floor(40 * next()) }, () => vocabulary[Math.floor(vocabulary.length * next() ** 2)]);
    return { id: `doc${index}#chunk-0`, content: words.join(" "), metadata: { docId: `doc${index}`, chunkIndex: 0 } };
  });
}

function boundsFile(): string {
  return readdirSync(directory).find((name) => name.endsWith(".bounds.bin")) as string;
}

const corrupt = (what: string) => (error: unknown) => CorruptIndexError.isInstance(error) && error.message.includes(what);

describe("issue 36 review: a bounds file read whole at its first use", () => {
  it("issue 36: a damaged block the query's terms do not touch is refused at the first search and again at the next, naming the file", async () => {
    await (await build(records(6000))).close();
    rewriteAsFormat6(directory);
    const name = boundsFile();
    const path = join(directory, name);
    const bytes = readFileSync(path);
    expect(bytes.length).toBeGreaterThan(3 * checksumBlockBytes);
    expect(bytes.length).toBeLessThanOrEqual(wholeBoundsBytes);
    const terms = (readManifest(directory) as IndexManifest).terms;
    const layout = scoreBoundsLayout(terms, bytes.readUInt32LE(4 * terms));
    // A byte in the middle of the bounds array: a term's bounds far from those of the first term.
    const at = layout.boundsAt + 8 * Math.floor((layout.firstsAt - layout.boundsAt) / 16);
    bytes[at] = (bytes[at] ?? 0) ^ 0x10;
    writeFileSync(path, bytes);
    const reader = await open();
    await expect(reader.search({ query: "w0k", topK: 5 })).rejects.toSatisfy(corrupt(`${name} does not match its checksum`));
    // Not served from the file read per term afterwards: the same search is refused again.
    await expect(reader.search({ query: "w0k", topK: 5 })).rejects.toSatisfy(corrupt(`${name} does not match its checksum`));
  });

  it("issue 36: a bounds file truncated after the reader opened it is refused at the first search, naming the file", async () => {
    await (await build(records(1500))).close();
    rewriteAsFormat6(directory);
    const reader = await open();
    const name = boundsFile();
    truncateSync(join(directory, name), 100);
    await expect(reader.search({ query: "w0k w1k", topK: 5 })).rejects.toSatisfy(corrupt(`${name} ends at byte`));
  });

  it("issue 36: a bounds file longer than the manifest says is refused at open, naming the file", async () => {
    await (await build(records(1500))).close();
    rewriteAsFormat6(directory);
    const name = boundsFile();
    appendFileSync(join(directory, name), Buffer.alloc(8));
    await expect(open()).rejects.toSatisfy(corrupt(`${name} has`));
  });
});
