import { describe, expect, it } from "vitest";
import { lexicalTerms as tokenize } from "@lookup-knowledge/text";
import { lexicalSparseValues } from "./lexical-sparse-values.js";
import { normalizePineconeScore } from "./normalize-pinecone-score.js";

describe("normalizePineconeScore", () => {
  it("R9: gives the cosine similarity in 0..1 on every metric, for unit vectors", () => {
    const cosine = 0.6;
    expect(normalizePineconeScore(cosine, "cosine")).toBeCloseTo(0.6, 12);
    expect(normalizePineconeScore(cosine, "dotproduct")).toBeCloseTo(0.6, 12);
    // Pinecone's euclidean score is the squared distance: |a - b|² = 2 - 2 cos for unit vectors.
    expect(normalizePineconeScore(2 - 2 * cosine, "euclidean")).toBeCloseTo(0.6, 12);
  });

  it("R9: clamps opposite and out-of-range scores into 0..1, and non-numbers to 0", () => {
    expect(normalizePineconeScore(-0.4, "cosine")).toBe(0);
    expect(normalizePineconeScore(3.2, "dotproduct")).toBe(1);
    expect(normalizePineconeScore(4, "euclidean")).toBe(0);
    expect(normalizePineconeScore(Number.NaN, "cosine")).toBe(0);
  });
});

describe("lexicalSparseValues", () => {
  it("R13: hashes the embedded default's terms to unique ascending indices with unit length", () => {
    const text = "Refunds are refunded to the card; refunds take 5 days.";
    const sparse = lexicalSparseValues(text);
    expect(sparse.indices).toEqual([...sparse.indices].sort((left, right) => left - right));
    expect(new Set(sparse.indices).size).toBe(sparse.indices.length);
    expect(sparse.indices.length).toBe(new Set(tokenize(text)).size);
    expect(sparse.values.reduce((sum, value) => sum + value * value, 0)).toBeCloseTo(1, 12);
    for (const index of sparse.indices) expect(index).toBeLessThanOrEqual(0xffff_ffff);
  });

  it("R13: weighs repeated terms sublinearly, and gives empty lists for text without terms", () => {
    const sparse = lexicalSparseValues("refund refund refund card");
    expect(Math.max(...sparse.values) / Math.min(...sparse.values)).toBeCloseTo(1 + Math.log(3), 12);
    expect(lexicalSparseValues("the of and")).toEqual({ indices: [], values: [] });
  });
});
