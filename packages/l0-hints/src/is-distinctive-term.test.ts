import { describe, expect, it } from "vitest";
import { isDistinctiveTerm } from "./is-distinctive-term.js";

describe("isDistinctiveTerm", () => {
  it("a single ordinary word is never distinctive, whatever its case or the stop words around it", () => {
    for (const term of ["Security", "Shell", "Script", "Project", "kong", "The Shell", "Using Redis", "Shell."]) {
      expect(isDistinctiveTerm(term), term).toBe(false);
    }
  });

  it("a single word that looks like an identifier is distinctive", () => {
    for (const term of [
      "limit-req",
      "long_query_time",
      "node.js",
      "v1/users",
      "OAuth2",
      "k8s",
      "JWT",
      "OpenTelemetry",
      "limitReq",
      "ＪＷＴ",
    ]) {
      expect(isDistinctiveTerm(term), term).toBe(true);
    }
  });

  it("punctuation only at the edge of a word, or a single capital, makes no identifier", () => {
    for (const term of ["-shell", "shell/", "Shell", "C++", "C#"]) {
      expect(isDistinctiveTerm(term), term).toBe(false);
    }
  });

  it("a term of two or more words (stop words not counted) is distinctive", () => {
    for (const term of ["Load Balance", "rate limit", "Webhook Delivery and Retries", "shell script"]) {
      expect(isDistinctiveTerm(term), term).toBe(true);
    }
    expect(isDistinctiveTerm("Shell of the")).toBe(false);
  });

  it("a CJK term needs three CJK characters or a Latin identifier beside them", () => {
    expect(isDistinctiveTerm("限流")).toBe(false);
    expect(isDistinctiveTerm("安全")).toBe(false);
    expect(isDistinctiveTerm("慢查询")).toBe(true);
    expect(isDistinctiveTerm("网关限流插件配置")).toBe(true);
    expect(isDistinctiveTerm("キャッシュ")).toBe(true);
    expect(isDistinctiveTerm("TiDB 集群")).toBe(true);
    expect(isDistinctiveTerm("k8s部署")).toBe(true);
    expect(isDistinctiveTerm("Redis 集群")).toBe(false);
    expect(isDistinctiveTerm("网关/限流")).toBe(true);
    expect(isDistinctiveTerm("网/关")).toBe(false);
  });
});
