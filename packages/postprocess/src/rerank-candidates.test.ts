import { describe, expect, it } from "vitest";
import { candidatesOf, hit, hintsOf, noHints } from "../test/fixtures.js";
import { defaultRerankWeights, rerankCandidates, resolveRerankWeights } from "./rerank-candidates.js";

const keys = (items: Array<{ evidenceKey: string }>) => items.map((item) => item.evidenceKey);

describe("rerankCandidates", () => {
  it("R18: without hints or matching query terms the order is the port's score order", () => {
    const candidates = candidatesOf([hit("a", 0, { score: 0.5 }), hit("b", 0, { score: 0.9 }), hit("c", 0, { score: 0.7 })]);
    const ranked = rerankCandidates(candidates, { query: "anything", hints: noHints });
    expect(keys(ranked)).toEqual(["b#chunk-0", "c#chunk-0", "a#chunk-0"]);
    expect(ranked.map((candidate) => candidate.boosts)).toEqual([[], [], []]);
    expect(ranked.map((candidate) => candidate.rankScore)).toEqual([0.9, 0.7, 0.5]);
  });

  it("R18: same input, same order, and ties break by port rank then evidence key", () => {
    const candidates = candidatesOf([hit("z", 0, { score: 0.6 }), hit("a", 0, { score: 0.6 }), hit("m", 0, { score: 0.6 })]);
    const first = rerankCandidates(candidates, { query: "q", hints: noHints });
    const second = rerankCandidates([...candidates].reverse(), { query: "q", hints: noHints });
    expect(keys(first)).toEqual(["z#chunk-0", "a#chunk-0", "m#chunk-0"]);
    expect(second).toEqual(first);
  });

  it("R18: unscored candidates get a positional base score 0.5/(portRank+1)", () => {
    const candidates = candidatesOf([hit("a", 0), hit("b", 0), hit("c", 0)]);
    const ranked = rerankCandidates(candidates, { query: "q", hints: noHints });
    expect(ranked.map((candidate) => candidate.baseScore)).toEqual([0.5, 0.25, 0.166667]);
    expect(keys(ranked)).toEqual(["a#chunk-0", "b#chunk-0", "c#chunk-0"]);
  });

  it("R18: an L0 title match boosts a candidate past a better-scored one, with a named reason", () => {
    const candidates = candidatesOf([
      hit("other", 0, { score: 0.8, title: "Shipping" }),
      hit("refunds", 0, { score: 0.75, title: "ＲＥＦＵＮＤＳ" }),
    ]);
    const ranked = rerankCandidates(candidates, { query: "money back", hints: hintsOf({ titles: ["Refunds"] }) });
    expect(keys(ranked)).toEqual(["refunds#chunk-0", "other#chunk-0"]);
    // 0.08 of the list's best base score (0.8).
    expect(ranked[0]?.boosts).toEqual([{ signal: "title", reason: 'title matches L0 hint "Refunds"', amount: 0.064 }]);
    expect(ranked[0]?.rankScore).toBe(0.814);
    expect(ranked[0]?.hitReasons).toContainEqual({ signal: "title", detail: 'title matches L0 hint "Refunds"', term: "Refunds" });
  });

  it("R18: keyword, entity and domain boosts name the matched term", () => {
    const [candidate] = candidatesOf([
      hit("limits", 0, {
        score: 1,
        category: "Billing",
        content: "The API enforces a rate\nlimit per key. Stripe webhooks are exempt.",
      }),
    ]);
    if (!candidate) throw new Error("fixture");
    const [ranked] = rerankCandidates([candidate], {
      query: "q",
      hints: hintsOf({ keywords: ["rate limit", "quota"], entities: ["Stripe"], domains: ["billing"] }),
    });
    expect(ranked?.boosts).toEqual([
      { signal: "keyword", reason: 'keyword "rate limit" (L0 hint)', amount: 0.03 },
      { signal: "entity", reason: 'entity "Stripe" (L0 hint)', amount: 0.03 },
      { signal: "domain", reason: 'category "Billing" matches L0 domain', amount: 0.05 },
    ]);
    expect(ranked?.rankScore).toBe(1.11);
  });

  it("R18: query terms in the breadcrumb and title give heading and query_term boosts", () => {
    const [candidate] = candidatesOf([hit("hooks", 0, { score: 1, title: "Webhook retries", breadcrumb: "API > Webhook > Retries" })]);
    if (!candidate) throw new Error("fixture");
    const [ranked] = rerankCandidates([candidate], { query: "How do webhook retries work?", hints: noHints });
    expect(ranked?.boosts).toEqual([
      { signal: "heading", reason: 'heading mentions "webhook"', amount: 0.02 },
      { signal: "heading", reason: 'heading mentions "retries"', amount: 0.02 },
      { signal: "query_term", reason: 'title mentions query term "webhook"', amount: 0.02 },
      { signal: "query_term", reason: 'title mentions query term "retries"', amount: 0.02 },
    ]);
  });

  it("R18: Latin terms match on word boundaries only", () => {
    const [candidate] = candidatesOf([hit("d", 0, { score: 0.5, content: "Prepayment refundable and webhooks." })]);
    if (!candidate) throw new Error("fixture");
    const [ranked] = rerankCandidates([candidate], {
      query: "q",
      hints: hintsOf({ keywords: ["pay", "refund", "webhook"] }),
    });
    expect(ranked?.boosts).toEqual([]);
  });

  it("R18: CJK hints and query terms match as substrings", () => {
    const [candidate] = candidatesOf([
      hit("zh", 0, { score: 0.5, title: "退款政策", breadcrumb: "账单 > 退款政策", content: "申请退款需要七天。" }),
    ]);
    if (!candidate) throw new Error("fixture");
    const [ranked] = rerankCandidates([candidate], { query: "如何申请退款", hints: hintsOf({ keywords: ["退款"] }) });
    expect(ranked?.boosts.map((boost) => boost.reason)).toEqual([
      'keyword "退款" (L0 hint)',
      'heading mentions "退款"',
      'title mentions query term "退款"',
    ]);
  });

  it("R18: the boosts of one signal are capped at maxPerSignal", () => {
    const [candidate] = candidatesOf([hit("d", 0, { score: 1, content: "alpha beta gamma delta epsilon" })]);
    if (!candidate) throw new Error("fixture");
    const [ranked] = rerankCandidates([candidate], {
      query: "q",
      hints: hintsOf({ keywords: ["alpha", "beta", "gamma", "delta", "epsilon"] }),
      weights: { keyword: 0.04 },
    });
    expect(ranked?.boosts.map((boost) => boost.amount)).toEqual([0.04, 0.04, 0.01]);
    expect(ranked?.rankScore).toBe(1.09);
  });

  it("R18: boosts are shares of the list's best base score, so the same hints reorder alike whatever the port's scale", () => {
    const hints = hintsOf({ titles: ["Refunds"] });
    const at = (scale: number) =>
      rerankCandidates(
        candidatesOf([
          hit("other", 0, { score: 0.8 * scale, title: "Shipping" }),
          hit("refunds", 0, { score: 0.75 * scale, title: "Refunds" }),
          hit("far", 0, { score: 0.5 * scale, title: "Refunds" }),
        ]),
        { query: "money back", hints },
      );
    for (const scale of [1, 0.5, 0.25]) {
      const ranked = at(scale);
      expect(keys(ranked)).toEqual(["refunds#chunk-0", "other#chunk-0", "far#chunk-0"]);
      expect(ranked[0]?.boosts[0]?.amount).toBeCloseTo(0.08 * 0.8 * scale, 6);
    }
  });

  it("R6: hints never create candidates, with or without input", () => {
    const hints = hintsOf({ titles: ["Refunds"], keywords: ["refund"], domains: ["billing"], entities: ["Stripe"] });
    expect(rerankCandidates([], { query: "refund", hints })).toEqual([]);
    const candidates = candidatesOf([hit("a", 0, { score: 0.4 })]);
    expect(keys(rerankCandidates(candidates, { query: "refund", hints }))).toEqual(["a#chunk-0"]);
  });

  it("does not mutate its input and keeps the candidate's fields", () => {
    const candidates = candidatesOf([hit("a", 0, { score: 0.4, title: "Refunds" })]);
    const before = structuredClone(candidates);
    const [ranked] = rerankCandidates(candidates, { query: "q", hints: hintsOf({ titles: ["refunds"] }) });
    expect(candidates).toEqual(before);
    expect(ranked).toMatchObject({ ...before[0], hitReasons: expect.any(Array) });
  });

  it("R18: boosts together add at most maxBoostShare of the base score, so a clearly better candidate keeps its lead; R19: the trace shows the scaled amounts", () => {
    const hints = hintsOf({ titles: ["Rate limits"], keywords: ["rate limit", "quota"], entities: ["Stripe"], domains: ["billing"] });
    const boosted = { score: 0.6, title: "Rate limits", category: "billing", content: "A rate limit and a quota apply to Stripe calls." };
    const candidates = candidatesOf([hit("clear", 0, { score: 0.75, content: "Unrelated words only." }), hit("boosted", 1, boosted)]);
    const ranked = rerankCandidates(candidates, { query: "q", hints });
    expect(ranked.map((candidate) => candidate.docId)).toEqual(["clear", "boosted"]);
    const second = ranked[1];
    const total = (second?.boosts ?? []).reduce((sum, boost) => sum + boost.amount, 0);
    expect(total).toBeCloseTo(0.12, 5);
    expect(second?.rankScore).toBeCloseTo(0.72, 5);
    expect(second?.boosts.map((boost) => boost.signal)).toEqual(["title", "keyword", "keyword", "entity", "domain"]);
    // A near tie is still reordered.
    const near = rerankCandidates(
      candidatesOf([hit("clear", 0, { score: 0.62, content: "Unrelated words only." }), hit("boosted", 1, boosted)]),
      { query: "q", hints },
    );
    expect(near.map((candidate) => candidate.docId)).toEqual(["boosted", "clear"]);
  });

  it("has the documented default weights and refuses a bad weight", () => {
    expect(defaultRerankWeights).toEqual({
      title: 0.08,
      keyword: 0.03,
      entity: 0.03,
      domain: 0.05,
      heading: 0.02,
      queryTerm: 0.02,
      maxPerSignal: 0.09,
      maxBoostShare: 0.2,
      repeatedDocument: 0.25,
    });
    expect(() => rerankCandidates([], { query: "q", hints: noHints, weights: { title: -1 } })).toThrow(/rerank weight title/);
    expect(() => rerankCandidates([], { query: "q", hints: noHints, weights: { repeatedDocument: 1.5 } })).toThrow(
      /rerank weight repeatedDocument is a share of a block's score, from 0 to 1, got 1.5/,
    );
  });
});

describe("resolveRerankWeights", () => {
  it("fills the defaults and refuses a bad weight by name", () => {
    expect(resolveRerankWeights({ title: 0.2 })).toEqual({ ...defaultRerankWeights, title: 0.2 });
    expect(() => resolveRerankWeights({ keyword: -1 })).toThrow(/rerank weight keyword/);
    expect(() => resolveRerankWeights({ domain: Number.NaN })).toThrow(/rerank weight domain/);
  });
});
