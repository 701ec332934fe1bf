import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { EmbedderMismatchError } from "../errors/embedder-mismatch-error.js";
import { openLocalSearchPort } from "../open-local-search-port.js";
import type { LocalSearchPort } from "../port/local-search-port.js";
import { hashEmbeddings, records } from "../test/local-port-test-fixtures.js";
import type { EmbeddedRow, LocalEmbeddings } from "./embedded-row.js";

const folders: string[] = [];
const ports: LocalSearchPort[] = [];
afterEach(async () => {
  for (const port of ports.splice(0)) await port.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const hash = hashEmbeddings();
const { identity } = hash;

/** The hash embedder's vectors rounded to float32, as `rows` shapes them (one buffer per call). */
function embedderAnswering(rows: (vectors: Float32Array[]) => readonly EmbeddedRow[], method: "embedDocuments" | "embedDocumentRows") {
  const float32 = async (texts: string[]): Promise<Float32Array[]> => {
    const vectors = await hash.embedDocuments(texts);
    const buffer = new Float32Array(texts.length * identity.dimension);
    return vectors.map((vector, row) => {
      buffer.set(vector, row * identity.dimension);
      return buffer.subarray(row * identity.dimension, (row + 1) * identity.dimension);
    });
  };
  const embeddings: LocalEmbeddings & { identity: typeof identity } = {
    identity,
    // Queries as the plain hash embedder gives them, the same for every index compared.
    embedQuery: (text) => hash.embedQuery(text),
    embedDocuments: async (texts) => {
      if (method === "embedDocumentRows") throw new Error("embedDocuments is not called when embedDocumentRows is there");
      return rows(await float32(texts));
    },
  };
  if (method === "embedDocumentRows") embeddings.embedDocumentRows = async (texts) => rows(await float32(texts));
  return embeddings;
}

async function buildWith(embeddings: LocalEmbeddings & { identity: typeof identity }): Promise<string> {
  const directory = mkdtempSync(join(tmpdir(), "typed-rows-"));
  folders.push(directory);
  const writer = await openLocalSearchPort({ directory, mode: "write", embeddings });
  // Two upserts: one batch asked for ahead (`embedAhead`) and one asked at once.
  writer.embedAhead(records.slice(0, 3));
  await writer.upsert(records.slice(0, 3));
  await writer.upsert(records.slice(3));
  await writer.commit();
  await writer.close();
  return directory;
}

async function searchAll(directory: string, embeddings: LocalEmbeddings) {
  const answers: unknown[] = [];
  for (const options of [{}, { denseWeight: 1, denseFloor: 0 }]) {
    const port = await openLocalSearchPort({ directory, embeddings, minScore: 0, ...options });
    ports.push(port);
    for (const query of ["refund to the card", "parcels warehouse", "order receipt number", "noon"]) {
      answers.push((await port.search({ query, topK: 10 })).map((hit) => [hit.id, hit.score]));
    }
  }
  return answers;
}

describe("issue 36 item 4: an embedder may answer typed rows, and the index is the one number arrays build", () => {
  it("Float32Array rows (views into one buffer), Float64Array rows and number[] rows of the same values give the same hits and scores", async () => {
    const asArrays = await buildWith(embedderAnswering((rows) => rows.map((row) => Array.from(row)), "embedDocuments"));
    const asFloat32 = await buildWith(embedderAnswering((rows) => rows, "embedDocuments"));
    const asFloat64 = await buildWith(embedderAnswering((rows) => rows.map((row) => Float64Array.from(row)), "embedDocuments"));
    const viaRows = await buildWith(embedderAnswering((rows) => rows, "embedDocumentRows"));
    const expected = await searchAll(asArrays, hash);
    // The dense part took part: the dense-only answers are not empty.
    expect((expected.at(-1) as unknown[]).length).toBeGreaterThan(0);
    expect(await searchAll(asFloat32, hash)).toEqual(expected);
    expect(await searchAll(asFloat64, hash)).toEqual(expected);
    expect(await searchAll(viaRows, hash)).toEqual(expected);
  });

  it("refuses a typed row of the wrong length, or holding NaN, with EmbedderMismatchError naming it, and stages nothing", async () => {
    const cases: Array<[string, (rows: Float32Array[]) => EmbeddedRow[], RegExp]> = [
      ["short", (rows) => rows.map((row, index) => (index === 1 ? row.subarray(0, 5) : row)), /a vector of 5 dimensions, not 32/],
      [
        "NaN",
        (rows) => rows.map((row, index) => (index === 2 ? Float32Array.from(row, (value, at) => (at === 7 ? Number.NaN : value)) : row)),
        /a vector holding NaN at position 7 \(vector 2 of 6\), not a finite number/,
      ],
      ["not float", (rows) => rows.map((row) => Int8Array.from(row)) as unknown as EmbeddedRow[], /a vector of type Int8Array/],
    ];
    for (const [name, shape, message] of cases) {
      const directory = mkdtempSync(join(tmpdir(), "typed-rows-bad-"));
      folders.push(directory);
      const writer = await openLocalSearchPort({ directory, mode: "write", embeddings: embedderAnswering(shape, "embedDocumentRows") });
      ports.push(writer);
      const refusal = await writer.upsert(records).catch((error: unknown) => error);
      expect(EmbedderMismatchError.isInstance(refusal), name).toBe(true);
      expect((refusal as Error).message, name).toMatch(message);
      expect(writer.stats().chunks, name).toBe(0);
    }
  });
});
