import { describe, expect, it } from "vitest";
import { featureHash } from "./feature-hash.js";
import { LexicalFeatures, bucketOf } from "./lexical-features.js";
import { OfflineEmbeddings } from "./offline-embeddings.js";

describe("issue 36 item 6: LexicalFeatures, the embedder's lexical features kept between texts", () => {
  it("lists each feature of a text once, in the order of its first occurrence, with its count and weight sum", () => {
    const features = new LexicalFeatures(256, 64);
    features.begin();
    const rate = features.stemSlot("rate");
    const limit = features.stemSlot("limit");
    features.add(rate, 0.5);
    features.add(limit, 0.25);
    features.add(features.stemSlot("rate"), 0.125);
    features.add(features.pairSlot("rate", rate, "limit", limit), 0.1);
    features.add(features.gramSlot("限流"), 1);
    expect(features.touched.map(({ count, weight }) => [count, weight])).toEqual([
      [2, 0.625],
      [1, 0.25],
      [1, 0.1],
      [1, 1],
    ]);
    const expected = (feature: string) => ({ bucket: bucketOf(featureHash(feature), 256), negative: (featureHash(feature) & 1) === 1 });
    expect(features.touched.map(({ bucket, negative }) => ({ bucket, negative }))).toEqual([
      expected("w\u0001rate"),
      expected("w\u0001limit"),
      expected("b\u0001rate\u0001limit"),
      expected("c\u0001限流"),
    ]);

    // The next text starts every count again, and finds the same slots.
    features.begin();
    features.add(features.pairSlot("rate", rate, "limit", limit), 0.3);
    expect(features.touched.map(({ count, weight }) => [count, weight])).toEqual([[1, 0.3]]);
    expect(features.pairSlot("limit", limit, "rate", rate)).not.toBe(features.pairSlot("rate", rate, "limit", limit));
  });

  it("keeps a stem longer than the bound for the current text only, still counted once per text", () => {
    const features = new LexicalFeatures(256, 8);
    features.begin();
    const long = features.stemSlot("abcdefghijk");
    expect(features.stemSlot("abcdefghijk")).toBe(long);
    features.add(long, 1);
    features.add(features.stemSlot("abcdefghijk"), 1);
    expect(features.touched).toHaveLength(1);
    expect(features.touched[0]?.count).toBe(2);
    features.begin();
    expect(features.stemSlot("abcdefghijk")).not.toBe(long);
  });

  it("starts its tables over between texts past its bound, and the embedder's vectors stay those of a fresh embedder", async () => {
    // Over 250,000 distinct pairs of 601 made-up words (so the embedder's word cache never fills
    // and starts over itself): text t walks the words with a stride of t + 1, a prime number of them.
    const words = 601;
    const word = (index: number) => `q${index.toString(36)}z`;
    const texts = Array.from({ length: 450 }, (_, text) =>
      Array.from({ length: words + 1 }, (_, position) => word((position * (text + 1)) % words)).join(" "),
    );
    // "limits" stems like "limit": seen before the restart, then again with a word first met after it.
    const probe = "rate limit per consumer; the limits of a rate";
    const embeddings = new OfflineEmbeddings();
    const before = await embeddings.embedQuery("rate limit per consumer");
    await embeddings.embedDocuments(texts);
    const started = embeddings as unknown as { lexical: { kept: number } };
    expect(started.lexical.kept).toBeLessThan(250_000);
    const fresh = new OfflineEmbeddings();
    expect(await embeddings.embedQuery(probe)).toEqual(await fresh.embedQuery(probe));
    expect(await embeddings.embedDocuments([probe])).toEqual(await fresh.embedDocuments([probe]));
    expect(await embeddings.embedQuery("rate limit per consumer")).toEqual(before);
  }, 60_000);
});
