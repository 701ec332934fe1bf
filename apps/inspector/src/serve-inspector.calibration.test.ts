import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exampleKnowledgeBase } from "./test/inspected-base.js";
import { postJson } from "./test/inspector-http.js";
import { useInspectedBase } from "./test/use-inspected-base.js";

describe("issue 13: the inspector's calibration API on the ingested example base", () => {
  const base = useInspectedBase();

  it("issue 13: POST /api/calibration gives each question's gate score, the threshold's found and refused rates, and the eval figures", async () => {
    const examples = JSON.parse(await readFile(join(exampleKnowledgeBase, "questions.json"), "utf8")) as Array<{
      question: string;
      relevant: string[];
    }>;
    const lines = [
      ...examples
        .slice(0, 8)
        .map((example, index) => JSON.stringify({ id: `q${index}`, query: example.question, relevant: example.relevant })),
      JSON.stringify({ id: "out1", query: "What is the boiling point of ethanol?", relevant: [] }),
      JSON.stringify({ id: "out2", query: "Who painted the ceiling of the Sistine Chapel?", relevant: [] }),
    ];
    const answer = await postJson(base.current, "/api/calibration", { questions: lines.join("\n") });
    expect(answer.status, answer.body).toBe(200);
    const view = JSON.parse(answer.body) as {
      referenceThreshold: number;
      samples: Array<{ id: string; answerable: boolean; gateScore: number | null }>;
      tradeOff: unknown[];
      atThreshold: { answerableFound: number; answerableAsked: number; outOfScopeRefused: number; outOfScopeAsked: number };
      evaluation: {
        scores: { ndcg10: number };
        answerable: { asked: number; found: number };
        outOfScope: { asked: number; refused: number };
      };
    };
    expect(view.referenceThreshold).toBe(base.current.knowledgeBase.retriever.config.referenceThreshold);
    expect(view.samples).toHaveLength(10);
    expect(view.tradeOff).toHaveLength(99);
    const found = view.samples.filter(
      (sample) => sample.answerable && sample.gateScore !== null && sample.gateScore >= view.referenceThreshold,
    );
    expect(view.atThreshold).toMatchObject({ answerableAsked: 8, outOfScopeAsked: 2, answerableFound: found.length });
    expect(view.evaluation.answerable.asked).toBe(8);
    expect(view.evaluation.scores.ndcg10).toBeGreaterThan(0.5);
    const bad = await postJson(base.current, "/api/calibration", { questions: '{"id": 1}' });
    expect([bad.status, JSON.parse(bad.body).error.message]).toEqual([400, expect.stringContaining("line 1")]);
    expect(JSON.parse(bad.body).error.message).not.toContain("lookup-knowledge-inspector-");
  });
});
