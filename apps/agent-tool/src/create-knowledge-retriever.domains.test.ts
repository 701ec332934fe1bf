import { emptyL0Hints, type L0Hints } from "@lookup-knowledge/core";
import type { L0Index } from "@lookup-knowledge/l0-hints";
import { createScriptedSearchPort } from "@lookup-knowledge/search-port/testing";
import { describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";
import { hit } from "./test/fixtures.js";

/** An L0 index that answers every query with the same hints. */
function fixedHints(hints: Partial<L0Hints>): L0Index {
  return { size: 1, match: () => ({ ...emptyL0Hints(), ...hints }) };
}

describe("the L0 domain filter and the domains only generic words matched", () => {
  it("R7: one domain and no other sends the filter", async () => {
    const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing" })]]);
    const retriever = createKnowledgeRetriever({ searchPort: port, l0Index: fixedHints({ domains: ["billing"], keywords: ["refund"] }) });
    await retriever.lookup("refund");
    expect(port.requests[0]?.filter).toEqual({ category: { $eq: "billing" } });
  });

  it("R7: one domain beside domains only generic words matched sends no filter", async () => {
    const port = createScriptedSearchPort([[hit("billing/refunds", 0, 0.9, { category: "billing" })]]);
    const retriever = createKnowledgeRetriever({
      searchPort: port,
      l0Index: fixedHints({ domains: ["billing"], otherDomains: ["support"], keywords: ["refund"] }),
    });
    const result = await retriever.lookup("refund");
    expect(port.requests[0]?.filter).toBeUndefined();
    expect(result.retrievalTrace.attempts).toHaveLength(1);
    expect(result.retrievalTrace.hints.otherDomains).toEqual(["support"]);
  });
});
