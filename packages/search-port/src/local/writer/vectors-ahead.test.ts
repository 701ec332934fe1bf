import { describe, expect, it } from "vitest";
import type { EmbeddedRow, LocalEmbeddings } from "./embedded-row.js";
import { createVectorsAhead } from "./vectors-ahead.js";

const dimension = 3;
/** Each text's row: its length, then 1, then 0, written into one Float32Array per call. */
function typedRows(texts: string[]): Float32Array[] {
  const buffer = new Float32Array(texts.length * dimension);
  return texts.map((text, row) => {
    buffer.set([text.length, 1, 0], row * dimension);
    return buffer.subarray(row * dimension, (row + 1) * dimension);
  });
}

/** An embedder answering typed rows; it records what it answered, per method. */
function embedderOf(withRows: boolean) {
  const answered: Array<{ method: string; rows: EmbeddedRow[] }> = [];
  const embeddings: LocalEmbeddings = {
    embedQuery: async () => [0, 0, 0],
    async embedDocuments(texts) {
      const rows = typedRows(texts);
      answered.push({ method: "embedDocuments", rows });
      return rows;
    },
  };
  if (withRows) {
    embeddings.embedDocumentRows = async (texts) => {
      const rows = typedRows(texts);
      answered.push({ method: "embedDocumentRows", rows });
      return rows;
    };
  }
  return { embeddings, answered };
}

const passThrough = (vectors: unknown) => vectors as EmbeddedRow[];
const entries = [
  { id: "a", text: "one" },
  { id: "b", text: "three" },
];

describe("issue 36 item 4: the vectors asked for a writer stay typed rows", () => {
  it("hands the rows embedDocuments answered to the writer as they are (no copy into number[])", async () => {
    const { embeddings, answered } = embedderOf(false);
    const vectors = await createVectorsAhead(embeddings).vectorsFor(entries, passThrough);
    expect(answered.map((call) => call.method)).toEqual(["embedDocuments"]);
    expect(vectors[0]).toBe(answered[0]?.rows[0]);
    expect(vectors[1]).toBe(answered[0]?.rows[1]);
    expect(Array.from(vectors[1] as Float32Array)).toEqual([5, 1, 0]);
  });

  it("asks embedDocumentRows instead of embedDocuments when the embedder has it, ahead and at once", async () => {
    const { embeddings, answered } = embedderOf(true);
    const ahead = createVectorsAhead(embeddings);
    ahead.start([entries[1] as (typeof entries)[number]]);
    const vectors = await ahead.vectorsFor(entries, passThrough);
    expect(answered.map((call) => call.method)).toEqual(["embedDocumentRows", "embedDocumentRows"]);
    // "b" from the call asked ahead, "a" from the one made now.
    expect(vectors[1]).toBe(answered[0]?.rows[0]);
    expect(vectors[0]).toBe(answered[1]?.rows[0]);
  });
});
