import { describe, expect, it } from "vitest";
import { candidatesOf, hit, hintsOf } from "../test/fixtures.js";
import { buildRerankTrace } from "./build-rerank-trace.js";
import { rerankCandidates } from "./rerank-candidates.js";

describe("buildRerankTrace", () => {
  const ranked = rerankCandidates(
    candidatesOf([
      hit("a", 0, { score: 0.7 }),
      { id: "v2", content: "Unscored refunds text.", metadata: { source: "loose.md" } },
      hit("b", 1, { score: 0.66, title: "Refunds", source: "guides/refunds.md" }),
    ]),
    { query: "q", hints: hintsOf({ titles: ["Refunds"] }) },
  );

  it("R19: records final rank, source, base score, each boost with reason and amount, and the port rank", () => {
    const trace = buildRerankTrace(ranked);
    expect(trace.method).toMatch(/^rules:v2/);
    expect(trace.entries).toEqual([
      {
        rank: 1,
        evidenceKey: "b#chunk-1",
        source: "guides/refunds.md",
        baseScore: 0.66,
        // 0.08 of the list's best base score (0.7).
        boosts: [{ signal: "title", reason: 'title matches L0 hint "Refunds"', amount: 0.056 }],
        finalScore: 0.716,
        portRank: 3,
      },
      {
        rank: 2,
        evidenceKey: "a#chunk-0",
        source: "docs/a.md",
        baseScore: 0.7,
        boosts: [],
        finalScore: 0.7,
        portRank: 1,
      },
      { rank: 3, evidenceKey: "vector:v2", source: "loose.md", boosts: [], finalScore: 0.25, portRank: 2 },
    ]);
  });

  it("R19: the base score is left out when the port gave none", () => {
    const entry = buildRerankTrace(ranked).entries.find((candidate) => candidate.evidenceKey === "vector:v2");
    expect(entry).toBeDefined();
    expect(entry && "baseScore" in entry).toBe(false);
  });

  it("R19: covers only the top `limit` entries when a limit is given", () => {
    expect(buildRerankTrace(ranked, 2).entries.map((entry) => entry.rank)).toEqual([1, 2]);
  });
});
