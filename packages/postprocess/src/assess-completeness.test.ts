import type { EvidenceBlock } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { assessCompleteness } from "./assess-completeness.js";
import { packContext } from "./pack-context.js";

function block(evidenceKey: string, content: string): EvidenceBlock {
  return {
    evidenceKey,
    source: `${evidenceKey}.md`,
    retrievalLayer: "L1",
    content,
    hitReasons: [],
    rankScore: 0.5,
    rank: 1,
  };
}

describe("assessCompleteness", () => {
  it("is complete, with no notes, when nothing was cut, dropped or rejected", () => {
    const contextPack = packContext([block("a", "Short.")], { budget: 1000 });
    expect(assessCompleteness({ contextPack, droppedByCap: 0, droppedByReturnN: 0, rejectedHits: 0 })).toEqual({
      status: "complete",
      notes: [],
    });
  });

  it("R25: is partial when the pack truncated or omitted blocks, naming rag.context-budget", () => {
    const long = "word ".repeat(200);
    const contextPack = packContext([block("a", long), block("b", long), block("c", long)], { budget: 400 });
    const hint = assessCompleteness({ contextPack, droppedByCap: 0, droppedByReturnN: 0, rejectedHits: 0 });
    expect(hint.status).toBe("partial");
    expect(hint.notes).toEqual([
      "2 evidence blocks were truncated to fit rag.context-budget (400 characters).",
      "1 evidence block was omitted from the context by rag.context-budget (400 characters).",
    ]);
  });

  it("R16, R17: is partial when chunks were dropped by the per-document cap or the return width", () => {
    const contextPack = packContext([block("a", "Short.")], { budget: 1000 });
    const hint = assessCompleteness({ contextPack, droppedByCap: 3, droppedByReturnN: 1, rejectedHits: 0 });
    expect(hint.status).toBe("partial");
    expect(hint.notes).toEqual([
      "3 chunks were dropped because their document already had the most chunks allowed by rag.max-chunks-per-document.",
      "1 ranked candidate was left out by rag.return-n.",
    ]);
  });

  it("is partial when port hits were rejected as malformed", () => {
    const contextPack = packContext([block("a", "Short.")], { budget: 1000 });
    const hint = assessCompleteness({ contextPack, droppedByCap: 0, droppedByReturnN: 0, rejectedHits: 2 });
    expect(hint).toEqual({
      status: "partial",
      notes: ["2 search hits were rejected as malformed (see the retrieval trace)."],
    });
  });

  it("R22: evidence of low relevance is partial, with a note that it may not answer the question", () => {
    const contextPack = packContext([block("a", "Short.")], { budget: 1000 });
    const hint = assessCompleteness({ contextPack, droppedByCap: 0, droppedByReturnN: 0, rejectedHits: 0, relevanceLevel: "low" });
    expect(hint.status).toBe("partial");
    expect(hint.notes).toEqual([expect.stringMatching(/^The evidence may not answer the question/)]);
    expect(
      assessCompleteness({ contextPack, droppedByCap: 0, droppedByReturnN: 0, rejectedHits: 0, relevanceLevel: "medium" }).status,
    ).toBe("complete");
  });
});
