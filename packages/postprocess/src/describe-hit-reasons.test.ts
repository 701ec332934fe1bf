import type { HitReason } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { candidatesOf, hit, hintsOf, noHints } from "../test/fixtures.js";
import { describeHitReasons } from "./describe-hit-reasons.js";
import { rerankCandidates } from "./rerank-candidates.js";

const semantic: HitReason = { signal: "semantic", detail: "semantic match 1.00" };

describe("describeHitReasons (issue 35 item 1)", () => {
  it("R24: says in plain words that a block matches the page title and which of the question's words it mentions", () => {
    const line = describeHitReasons([
      semantic,
      { signal: "title", detail: 'title matches L0 hint "Refunds"', term: "Refunds" },
      { signal: "keyword", detail: 'keyword "refund" (L0 hint)', term: "refund" },
      { signal: "keyword", detail: 'keyword "invoice" (L0 hint)', term: "invoice" },
      { signal: "domain", detail: 'category "billing" matches L0 domain', term: "billing" },
      { signal: "heading", detail: 'heading mentions "approval"', term: "approval" },
    ]);
    expect(line).toBe("matches the page title Refunds; mentions invoice, approval");
  });

  it("issue 35 item 1: no pipeline word, setting or score reaches the line", () => {
    const line = describeHitReasons([
      { signal: "semantic", detail: "semantic match 0.82" },
      { signal: "entity", detail: 'entity "Stripe" (L0 hint)', term: "Stripe" },
      { signal: "query_term", detail: 'title mentions query term "webhook"', term: "webhook" },
    ]);
    expect(line).toBe("mentions Stripe, webhook");
    expect(line).not.toMatch(/L0|hint|semantic|query term|rag\.|\d/);
  });

  it("names a word once (case, width and word endings folded), and at most four", () => {
    const terms = ["refund", "Refunds", "ＲＥＦＵＮＤ", "invoice", "credit note", "Credit Notes", "payout", "dispute", "tax"];
    const line = describeHitReasons(terms.map((term) => ({ signal: "keyword", detail: `keyword "${term}" (L0 hint)`, term })));
    expect(line).toBe("mentions refund, invoice, credit note, payout");
  });

  it("does not name a word beside a longer term that holds it, whichever comes first", () => {
    const terms = ["rate", "Rate Limiting", "limiting", "consumer", "limit count", "count"];
    const line = describeHitReasons(terms.map((term) => ({ signal: "keyword", detail: `keyword "${term}" (L0 hint)`, term })));
    expect(line).toBe("mentions Rate Limiting, consumer, limit count");
  });

  it("falls back to the category only when no word matched, and to plain similarity when nothing did", () => {
    expect(describeHitReasons([semantic, { signal: "domain", detail: 'category "billing" matches L0 domain', term: "billing" }])).toBe(
      "in the billing category",
    );
    expect(describeHitReasons([semantic])).toBe("similar to the question");
    expect(describeHitReasons([])).toBe("similar to the question");
    // Reasons written before terms were recorded (or blank terms) are not words to name.
    expect(
      describeHitReasons([semantic, { signal: "keyword", detail: 'keyword "x" (L0 hint)' }, { signal: "entity", detail: "", term: " " }]),
    ).toBe("similar to the question");
  });

  it("R18, R24: the rerank records each boost's matched term, so the line is written from what rerank matched", () => {
    const [candidate] = candidatesOf([
      hit("zh", 0, { score: 0.5, title: "退款政策", breadcrumb: "账单 > 退款政策", content: "申请退款需要七天。", category: "账单" }),
    ]);
    if (!candidate) throw new Error("fixture");
    const [ranked] = rerankCandidates([candidate], {
      query: "如何申请退款",
      hints: hintsOf({ keywords: ["退款"], titles: ["退款政策"], domains: ["账单"] }),
    });
    expect(ranked?.hitReasons.map((reason) => [reason.signal, reason.term])).toEqual([
      ["semantic", undefined],
      ["title", "退款政策"],
      ["keyword", "退款"],
      ["domain", "账单"],
      ["heading", "退款"],
      ["query_term", "退款"],
    ]);
    expect(describeHitReasons(ranked?.hitReasons ?? [])).toBe("matches the page title 退款政策; mentions 退款");
    const [plain] = rerankCandidates([candidate], { query: "q", hints: noHints });
    expect(describeHitReasons(plain?.hitReasons ?? [])).toBe("similar to the question");
  });
});
