import { ConfigurationError, LookupKnowledgeError, type KnowledgeEntry } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { createL0Index } from "./create-l0-index.js";
import type { L0Index } from "./l0-index.js";

// Issue 33, item 2: the index a caller's scope sees (`within`) is built from the admitted
// entries alone, so nothing about the other entries shows in its hints.

const tenantOf = (entry: KnowledgeEntry) => entry.metadata?.["tenant"];
const tenantA = { filter: { tenant: "a" }, admits: (entry: KnowledgeEntry) => tenantOf(entry) === "a" };

/** Tenant a's two pages and, when asked, tenant b's pages that share a's words. */
function entries(withB: boolean): KnowledgeEntry[] {
  const a: KnowledgeEntry[] = [
    { id: "a/refunds", source: "a/refunds.md", title: "Refund Policy", keywords: ["refund"], domain: "billing", metadata: { tenant: "a" } },
    { id: "a/sso", source: "a/sso.md", title: "Single sign-on", keywords: ["SAML-SSO"], domain: "security", metadata: { tenant: "a" } },
  ];
  if (!withB) return a;
  const b: KnowledgeEntry[] = Array.from({ length: 5 }, (_, index) => ({
    id: `b/refund-${index}`,
    source: `b/refund-${index}.md`,
    title: `Refund Runbook ${index}`,
    keywords: ["refund"],
    domain: "payments",
    metadata: { tenant: "b" },
  }));
  b.push({
    id: "b/secret",
    source: "b/secret.md",
    title: "Project Nightingale",
    keywords: ["nightingale"],
    domain: "secret",
    metadata: { tenant: "b" },
  });
  return [...b.slice(0, 3), ...a, ...b.slice(3)];
}

describe("L0Index.within", () => {
  it("issue 33: a scope's hints name only the entries it admits, and are the same whatever else the index holds", () => {
    const scoped = createL0Index(entries(true)).within?.(tenantA) as L0Index;
    const alone = createL0Index(entries(false));
    expect(scoped.size).toBe(2);
    for (const query of ["refund policy", "Project Nightingale", "refund runbook 3", "SAML-SSO and refunds", "nightingale"]) {
      expect(scoped.match(query), query).toEqual(alone.match(query));
    }
    expect(scoped.match("Project Nightingale").entries).toEqual([]);
  });

  it("issue 33: which terms are specific is counted among the admitted entries only", () => {
    // Six b entries hold "refund": in the whole index it is generic (more than 3 entries),
    // so "refund" gives no hint there; inside tenant a it is specific again.
    const whole = createL0Index(entries(true), { maxTermShare: 0 });
    expect(whole.match("refund").entries).toEqual([]);
    const scoped = whole.within?.(tenantA) as L0Index;
    expect(scoped.match("refund").entries.map((entry) => entry.id)).toEqual(["a/refunds"]);
  });

  it("issue 33: isCommonTermIn counts what is common in the scope, else isCommonTerm is kept; admits gets copies", () => {
    const scopes: unknown[] = [];
    const kept = createL0Index(entries(true), { isCommonTerm: () => true }).within?.(tenantA) as L0Index;
    // Common everywhere: SAML-SSO's domain is no hint, only otherDomains.
    expect(kept.match("SAML-SSO").domains).toEqual([]);
    const whole = createL0Index(entries(true), {
      isCommonTerm: () => true,
      isCommonTermIn: (scope) => {
        scopes.push(scope);
        return () => false;
      },
    });
    const replaced = (whole.within as NonNullable<L0Index["within"]>)({
      filter: { tenant: "a" },
      admits: (entry) => {
        (entry.keywords as string[]).push("changed");
        return tenantOf(entry) === "a";
      },
    });
    expect(replaced.match("SAML-SSO").domains).toEqual(["security"]);
    expect(scopes).toEqual([{ tenant: "a" }]);
    expect(whole.match("changed").entries).toEqual([]);
  });

  it("issue 33: refuses a scope without an admits function, and an isCommonTermIn that is not one or returns none", () => {
    const index = createL0Index(entries(false));
    expect(() => index.within?.("tenant a" as never)).toThrow(ConfigurationError);
    expect(() => index.within?.({ filter: {}, admits: 3 } as never)).toThrow(/admits/);
    expect(() => createL0Index([], { isCommonTermIn: 3 as never })).toThrow(/isCommonTermIn/);
    expect(() => createL0Index([], { isCommonTermIn: () => 3 as never }).within?.(tenantA)).toThrow(
      /isCommonTermIn.*must return a function/,
    );
  });

  it("issue 33: entry metadata must be a plain object of data, and later changes to it do not reach the index", () => {
    expect(() => createL0Index([{ id: "x", source: "x.md", metadata: ["a"] as never }])).toThrow(
      /index 0 \(id "x"\): metadata must be a plain object/,
    );
    expect(() => createL0Index([{ id: "x", source: "x.md", metadata: { check: () => true } }])).toThrow(LookupKnowledgeError);
    const metadata: Record<string, unknown> = { tenant: "a" };
    const index = createL0Index([{ id: "x", source: "x.md", title: "Refund Policy", metadata }]);
    metadata["tenant"] = "b";
    expect(index.within?.(tenantA).size).toBe(1);
  });
});
