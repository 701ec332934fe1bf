import { ConfigurationError, type KnowledgeEntry } from "@lookup-knowledge/core";
import { describe, expect, it, vi } from "vitest";
import { createL0Index } from "./create-l0-index.js";

// A documentation set nobody tuned on: short common-noun titles beside precise ones.
const docs: KnowledgeEntry[] = [
  { id: "security", source: "security.md", title: "Security", domain: "operations" },
  { id: "shell", source: "shell.md", title: "Shell", keywords: ["Script"], domain: "tooling" },
  { id: "nginx-limit", source: "nginx/limit.md", title: "Request limiting", keywords: ["limit-req"], domain: "nginx" },
  { id: "oauth", source: "auth/oauth.md", title: "Tokens", keywords: ["OAuth2", "JWT"], domain: "auth" },
  { id: "balancing", source: "lb.md", title: "Load Balance", domain: "network" },
  { id: "tracing", source: "tracing.md", keywords: ["OpenTelemetry"], domain: "observability" },
];

describe("only distinctive terms put a domain into the hints", () => {
  it("R7: a one-word title (Security, Shell) gives no domain, so no filter, but still a title hint and a matched entry", () => {
    const index = createL0Index(docs);
    const security = index.match("how do I harden the security of my cluster");
    expect(security.titles).toEqual(["Security"]);
    expect(security.entries.map((entry) => entry.id)).toEqual(["security"]);
    expect(security.entries[0]?.matches).toEqual([{ field: "title", term: "Security" }]);
    expect(security.domains).toEqual([]);
    expect(security.otherDomains).toEqual(["operations"]);

    const shell = index.match("run a shell script at startup");
    expect(shell.titles).toEqual(["Shell"]);
    expect(shell.keywords).toEqual(["Script"]);
    expect(shell.domains).toEqual([]);
    expect(shell.otherDomains).toEqual(["tooling"]);
  });

  it("R7: an identifier-like one-word keyword (limit-req, OAuth2, JWT, OpenTelemetry) still gives its domain", () => {
    const index = createL0Index(docs);
    expect(index.match("what does limit-req do").domains).toEqual(["nginx"]);
    expect(index.match("set up oauth2 login").domains).toEqual(["auth"]);
    expect(index.match("where do I validate a jwt").domains).toEqual(["auth"]);
    expect(index.match("export traces with OpenTelemetry").domains).toEqual(["observability"]);
    expect(index.match("where do I validate a jwt")).not.toHaveProperty("otherDomains");
  });

  it("R7: a multi-word title gives its domain, unless isCommonTerm marks it common", () => {
    expect(createL0Index(docs).match("load balance across zones").domains).toEqual(["network"]);
    const isCommonTerm = (term: string): boolean => term.toLowerCase() === "load balance";
    const hints = createL0Index(docs, { isCommonTerm }).match("load balance across zones");
    expect(hints.titles).toEqual(["Load Balance"]);
    expect(hints.entries.map((entry) => entry.id)).toEqual(["balancing"]);
    expect(hints.domains).toEqual([]);
    expect(hints.otherDomains).toEqual(["network"]);
  });

  it("R7: isCommonTerm can also mark an identifier-like or a long CJK term common", () => {
    const entries: KnowledgeEntry[] = [
      { id: "http", source: "http.md", keywords: ["HTTP"], domain: "web" },
      { id: "lb", source: "lb.md", keywords: ["负载均衡"], domain: "network" },
    ];
    const common = new Set(["HTTP", "负载均衡"]);
    const index = createL0Index(entries, { isCommonTerm: (term) => common.has(term) });
    expect(index.match("HTTP headers").domains).toEqual([]);
    expect(index.match("如何配置负载均衡").domains).toEqual([]);
    expect(index.match("如何配置负载均衡").keywords).toEqual(["负载均衡"]);
    expect(createL0Index(entries).match("如何配置负载均衡").domains).toEqual(["network"]);
  });

  it("calls isCommonTerm once per distinct term, while building, and only for terms distinctive by their shape", () => {
    const isCommonTerm = vi.fn((_term: string) => false);
    const index = createL0Index(
      [
        { id: "a", source: "a.md", title: "Load Balance", keywords: ["rate limit", "Shell"], domain: "network" },
        { id: "b", source: "b.md", title: "Load Balance", keywords: ["rate limit", "JWT"], domain: "network" },
      ],
      { isCommonTerm },
    );
    expect(isCommonTerm.mock.calls.map(([term]) => term).sort()).toEqual(["JWT", "Load Balance", "rate limit"]);
    index.match("load balance and rate limit with a jwt in the shell");
    expect(isCommonTerm).toHaveBeenCalledTimes(3);
  });

  it("R7: a CJK term of two characters gives no domain; one of three or more, or with a Latin identifier, does", () => {
    const entries: KnowledgeEntry[] = [
      { id: "safety", source: "safety.md", keywords: ["安全"], domain: "运维" },
      { id: "slow-log", source: "slow.md", keywords: ["慢查询"], domain: "数据库" },
      { id: "tidb", source: "tidb.md", keywords: ["TiDB 集群"], domain: "分布式" },
    ];
    const index = createL0Index(entries);
    const two = index.match("安全组怎么设置");
    expect(two.keywords).toEqual(["安全"]);
    expect(two.domains).toEqual([]);
    expect(two.otherDomains).toEqual(["运维"]);
    expect(index.match("怎么看慢查询").domains).toEqual(["数据库"]);
    expect(index.match("tidb集群怎么扩容").domains).toEqual(["分布式"]);
  });

  it("R7: a query matching a distinctive term of one entry and an ordinary word of another keeps the second domain in otherDomains, so no single-domain filter", () => {
    const index = createL0Index(docs);
    const hints = index.match("security settings for limit-req");
    expect(hints.entries.map((entry) => entry.id).sort()).toEqual(["nginx-limit", "security"]);
    expect(hints.titles).toEqual(["Security"]);
    expect(hints.keywords).toEqual(["limit-req"]);
    expect(hints.domains).toEqual(["nginx"]);
    expect(hints.otherDomains).toEqual(["operations"]);
  });

  it("R7: an entry matched by both an ordinary word and a distinctive term gives its domain", () => {
    const hints = createL0Index(docs).match("request limiting with limit-req");
    expect(hints.titles).toEqual(["Request limiting"]);
    expect(hints.domains).toEqual(["nginx"]);
    expect(hints).not.toHaveProperty("otherDomains");
  });

  it("refuses an isCommonTerm that is not a function, naming the option", () => {
    const error = (() => {
      try {
        createL0Index(docs, { isCommonTerm: "load balance" as unknown as (term: string) => boolean });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).key).toBe("isCommonTerm");
    expect(() => createL0Index(docs, { isCommonTerm: undefined } as never)).not.toThrow();
  });
});
