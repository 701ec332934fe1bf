import { describe, expect, it } from "vitest";
import { gapQueryTerms, type TermShareIndex } from "./gap-query-terms.js";
import { lexicalTerms } from "./lexical-terms.js";

/** An index over `records` answering as the local index's `termShare` does: the rarest of a text's terms. */
function indexOf(records: readonly string[]): TermShareIndex {
  const held = records.map((record) => new Set(lexicalTerms(record)));
  return {
    scopeSize: () => records.length,
    termShare(text) {
      const terms = lexicalTerms(text);
      if (terms.length === 0) return 0;
      return Math.min(...terms.map((term) => held.filter((record) => record.has(term)).length)) / records.length;
    },
  };
}

describe("gapQueryTerms (issue 37: the terms gaps groups queries by)", () => {
  it("issue 37 item 1: each query word retrieval looks for, stemmed as the index holds it, shown as asked; stop words out", () => {
    expect(gapQueryTerms().analyze("Where are the refused invoices?")).toEqual([
      { term: lexicalTerms("refused")[0], shown: "refused" },
      { term: lexicalTerms("invoices")[0], shown: "invoices" },
    ]);
    expect(gapQueryTerms().documentFrequencies).toBeUndefined();
  });

  it("issue 37 item 3 review: a term's frequency is the records holding its word, also when the stem analysed again is another term or none", () => {
    // "refused" -> "refus" -> "refu"; "others" -> "other" -> (a stop word): asked as stems, both would be held by no record.
    expect(lexicalTerms(lexicalTerms("refused")[0] ?? "")).not.toEqual(lexicalTerms("refused"));
    expect(lexicalTerms(lexicalTerms("others")[0] ?? "")).not.toEqual(lexicalTerms("others"));
    const terms = gapQueryTerms(indexOf(["a refused payment", "others refused it", "a paid invoice", "no others"]));
    const analysed = terms.analyze("refused by others, invoice");
    expect(analysed.map((term) => term.shown)).toEqual(["refused", "others", "invoice"]);
    expect(terms.documentFrequencies?.documentCount).toBe(4);
    expect(analysed.map((term) => terms.documentFrequencies?.frequency(term.term))).toEqual([2, 2, 1]);
  });
});
