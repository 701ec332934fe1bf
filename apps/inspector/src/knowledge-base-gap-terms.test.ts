import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { knowledgeBaseGapTerms } from "./knowledge-base-gap-terms.js";
import { inspectIngestedBase, exampleKnowledgeBase, type InspectedBase } from "./test/inspected-base.js";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

describe("issue 37 item 3: the Gaps view's default terms over the example base's own index", () => {
  let base: InspectedBase;
  beforeAll(async () => {
    const folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-inspector-gap-terms-"));
    base = await inspectIngestedBase({ folder, root: exampleKnowledgeBase, queries: [] });
  }, 180_000);
  afterAll(async () => {
    await base?.close();
  });

  it("issue 37 item 3 review: a term's document frequency is the base's count of the word asked, also when its stem stems again (status -> statu, refused -> refus -> refu)", () => {
    const terms = knowledgeBaseGapTerms(base.knowledgeBase);
    const index = base.knowledgeBase.store.localIndex;
    if (!index || !terms.documentFrequencies) throw new Error("the example base has an embedded index");
    const { documentCount, frequency } = terms.documentFrequencies;
    expect(documentCount).toBe(index.scopeSize());
    // Words the example base holds: each is one term, and its frequency is how many records hold that word.
    for (const word of ["status", "refused", "response", "uses", "paused", "invoice"]) {
      const analysed = terms.analyze(word);
      expect(analysed, word).toHaveLength(1);
      const [only] = analysed;
      const term = typeof only === "string" ? only : (only?.term ?? "");
      const held = Math.round(index.termShare(word) * documentCount);
      expect(held, word).toBeGreaterThan(0);
      expect(frequency(term), `${word} (${term})`).toBe(held);
    }
  });
});
