import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { OfflineEmbeddings } from "./offline-embeddings.js";

const embeddings = new OfflineEmbeddings();

const texts = [
  "Rate limiting caps how many requests per second a client may send.",
  "Throttle traffic at the gateway when a tenant sends too much.",
  "",
  "!!! ???",
  "limit limit limit the rate",
];

describe("issue 36 item 4: OfflineEmbeddings.embedDocumentRows, typed rows beside LangChain's number[][]", () => {
  it("gives the vectors of embedDocuments as Float32Array rows, each value the float32 of the number[] one", async () => {
    const arrays = await embeddings.embedDocuments(texts);
    const rows = await embeddings.embedDocumentRows(texts);
    expect(rows).toHaveLength(texts.length);
    rows.forEach((row, index) => {
      expect(row).toBeInstanceOf(Float32Array);
      expect(row).toHaveLength(embeddings.identity.dimension);
      expect(Array.from(row)).toEqual((arrays[index] as number[]).map(Math.fround));
    });
  });

  it("writes every row into one buffer for the call (views, no buffer per text)", async () => {
    const rows = await embeddings.embedDocumentRows(texts);
    const buffer = (rows[0] as Float32Array).buffer;
    rows.forEach((row, index) => {
      expect(row.buffer).toBe(buffer);
      expect(row.byteOffset).toBe(index * embeddings.identity.dimension * 4);
    });
    // A batch of none is an empty answer, as embedDocuments gives.
    expect(await embeddings.embedDocumentRows([])).toEqual([]);
  });

  it("leaves LangChain's face as it was: embedDocuments and embedQuery answer plain number arrays", async () => {
    const [document] = await embeddings.embedDocuments([texts[0] as string]);
    const query = await embeddings.embedQuery(texts[1] as string);
    expect(Array.isArray(document)).toBe(true);
    expect(Array.isArray(query)).toBe(true);
    expect(document?.every((value) => typeof value === "number")).toBe(true);
  });

  it("refuses a text that is not a string with the same invalid_embedding_input error", async () => {
    const refusal = await embeddings.embedDocumentRows(["fine", 42 as unknown as string]).catch((error: unknown) => error);
    expect(LookupKnowledgeError.isInstance(refusal) && refusal.code).toBe("invalid_embedding_input");
    expect((refusal as Error).message).toMatch(/text must be a string \(got 42\)/);
  });
});
