import { describe, expect, it } from "vitest";
import { queryTerms } from "./query-terms.js";

describe("queryTerms", () => {
  it("keeps words of 3+ characters that are not stop words", () => {
    expect(queryTerms("How do I get a refund for the Webhook API?").map((term) => term.normalized)).toEqual(["refund", "webhook", "api"]);
  });

  it("keeps CJK dictionary words of 2+ characters that are not question or function words", () => {
    expect(queryTerms("如何申请退款").map((term) => term.normalized)).toEqual(["申请", "退款"]);
    expect(queryTerms("怎么配置限流插件").map((term) => term.normalized)).toEqual(["配置", "限流", "插件"]);
  });
});
