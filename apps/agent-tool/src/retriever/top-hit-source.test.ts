import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Candidate, EvidenceBlock } from "@lookup-knowledge/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestIntoLocalIndex } from "../ingest-into-local-index.js";
import { openLocalKnowledgeBase } from "../open-local-knowledge-base.js";
import { exampleKnowledgeBase } from "../test/example-knowledge-base.js";
import { topHitSource } from "./top-hit-source.js";

function candidate(source: string, portRank: number, extra: Partial<Candidate> = {}): Candidate {
  return { evidenceKey: `${source}#0`, source, content: "text", portRank, hitReasons: [], metadata: {}, ...extra };
}

function block(source: string, score: number | undefined, title?: string): EvidenceBlock {
  return {
    evidenceKey: `${source}#0`,
    source,
    ...(title === undefined ? {} : { title }),
    retrievalLayer: "L1",
    content: "text",
    hitReasons: [],
    ...(score === undefined ? {} : { score }),
    rankScore: score ?? 0,
    rank: 1,
  };
}

const judgement = { score: 0.02, model: "test@1", signals: {} };

describe("topHitSource (issue 37 item 1)", () => {
  it("issue 37 item 1: the page behind the score is the port's judged hit, else its first hit when the judgement was lost, else the best-scored evidence", () => {
    const judged = [candidate("b.md", 1), candidate("a.md", 0, { title: "A", answerability: judgement })];
    const evidence = [block("c.md", 0.3), block("d.md", 0.5, "D"), block("e.md", undefined)];
    expect(topHitSource({ candidates: judged, evidenceBlocks: evidence, judgementLost: false })).toEqual({ source: "a.md", title: "A" });
    const lost = [candidate("b.md", 2), candidate("f.md", 1)];
    expect(topHitSource({ candidates: lost, evidenceBlocks: evidence, judgementLost: true })).toEqual({ source: "f.md" });
    expect(topHitSource({ candidates: lost, evidenceBlocks: evidence, judgementLost: false })).toEqual({ source: "d.md", title: "D" });
    expect(topHitSource({ candidates: [], evidenceBlocks: [block("e.md", undefined)], judgementLost: false })).toBeUndefined();
  });
});

describe("the retriever records the page behind each attempt's top score (issue 37 item 1, R11)", () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "top-hit-source-"));
    await ingestIntoLocalIndex({ root: exampleKnowledgeBase, dataDirectory });
  }, 120_000);
  afterAll(async () => {
    await rm(dataDirectory, { recursive: true, force: true });
  });

  it("issue 37 item 1: a lookup refused under a threshold no score reaches still names the page that came closest, on every attempt with a score", async () => {
    const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory, config: { referenceThreshold: 0.9999 } });
    try {
      const result = await knowledgeBase.retriever.lookup("How do I verify webhook signatures?");
      expect(result.found).toBe(false);
      const attempts = result.retrievalTrace.attempts;
      expect(attempts.length).toBeGreaterThan(0);
      for (const attempt of attempts) {
        expect(attempt.outcome).toBe("low_quality");
        expect(attempt.topScore).toBeLessThan(0.9999);
        expect(attempt.topSource?.source).toBe("integrations/webhooks.md");
      }
    } finally {
      await knowledgeBase.close();
    }
  });
});
