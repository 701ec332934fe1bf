import { ConfigurationError, InvalidQueryError, type KnowledgeEntry } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { createL0Index } from "./create-l0-index.js";

const catalog: KnowledgeEntry[] = [
  {
    id: "gateway-rate-limit",
    source: "docs/gateway/rate-limit.md",
    title: "Configuring Rate Limits",
    keywords: ["rate limit", "throttling", "art"],
    domain: "gateway",
    entities: ["Kong", "API Gateway"],
  },
  {
    id: "billing-refunds",
    source: "docs/billing/refunds.md",
    title: "Refund Policy",
    keywords: ["refund", "chargeback"],
    domain: "billing",
    entities: ["Stripe"],
  },
  {
    id: "billing-invoices",
    source: "docs/billing/invoices.md",
    title: "Invoices",
    keywords: ["invoice", "webhook"],
    domain: "billing",
  },
  {
    id: "platform-webhooks",
    source: "docs/platform/webhooks.md",
    title: "Webhook Delivery and Retries",
    keywords: ["webhook", "retry policy"],
    domain: "platform",
    entities: ["Svix"],
  },
];

describe("createL0Index", () => {
  it("R4: exposes matched titles, keywords, domains and entities, and which entries matched", () => {
    const index = createL0Index(catalog);
    const hints = index.match("Why does Stripe reject my refund under the refund policy?");
    expect(hints).toEqual({
      titles: ["Refund Policy"],
      keywords: ["refund"],
      domains: ["billing"],
      entities: ["Stripe"],
      entries: [
        {
          id: "billing-refunds",
          source: "docs/billing/refunds.md",
          title: "Refund Policy",
          domain: "billing",
          entities: ["Stripe"],
          matches: [
            { field: "title", term: "Refund Policy" },
            { field: "keyword", term: "refund" },
            { field: "entity", term: "Stripe" },
          ],
        },
      ],
    });
    expect(index.size).toBe(4);
  });

  it("R7: an entry only single ordinary words matched is listed with its terms, but its domain is only otherDomains", () => {
    const hints = createL0Index(catalog).match("Why does Stripe reject my refund?");
    expect(hints.keywords).toEqual(["refund"]);
    expect(hints.entities).toEqual(["Stripe"]);
    expect(hints.entries.map((entry) => entry.id)).toEqual(["billing-refunds"]);
    expect(hints.domains).toEqual([]);
    expect(hints.otherDomains).toEqual(["billing"]);
  });

  it("R4: reports a matched title in titles and in the entry's matches", () => {
    const hints = createL0Index(catalog).match("refund policy for annual plans");
    expect(hints.titles).toEqual(["Refund Policy"]);
    expect(hints.entries[0]?.matches).toEqual([
      { field: "title", term: "Refund Policy" },
      { field: "keyword", term: "refund" },
    ]);
  });

  it("returns empty hints when nothing matches", () => {
    const hints = createL0Index(catalog).match("what is the weather like today");
    expect(hints).toEqual({ titles: [], keywords: [], domains: [], entities: [], entries: [] });
    expect(createL0Index(catalog).match("   ")).toEqual(hints);
    expect(createL0Index([]).match("refund")).toEqual(hints);
  });

  describe("English terms", () => {
    it("matches a multi-word keyword as a phrase on word boundaries", () => {
      const hints = createL0Index(catalog).match("How do I set a rate limit?");
      expect(hints.keywords).toEqual(["rate limit"]);
      expect(hints.entries.map((entry) => entry.id)).toEqual(["gateway-rate-limit"]);
    });

    it("does not match a keyword inside a longer word", () => {
      const hints = createL0Index(catalog).match("how do I start the service");
      expect(hints.keywords).not.toContain("art");
      expect(hints.entries).toEqual([]);
      expect(createL0Index(catalog).match("rate limitless").keywords).toEqual([]);
      expect(createL0Index(catalog).match("pirate limit").keywords).toEqual([]);
    });

    it("meets inflections through the one Porter stemmer, on both sides", () => {
      expect(createL0Index(catalog).match("rate limiting").keywords).toEqual(["rate limit"]);
      expect(createL0Index(catalog).match("rate limiter").keywords).toEqual(["rate limit"]);
    });

    it("does not match a phrase whose words are split apart", () => {
      expect(createL0Index(catalog).match("the limit on the rate").keywords).toEqual([]);
    });

    it("treats punctuation as a word boundary", () => {
      expect(createL0Index(catalog).match("art: what is it?").keywords).toEqual(["art"]);
      expect(createL0Index(catalog).match("(rate-limit)").keywords).toEqual(["rate limit"]);
    });

    it("matches a title phrase that occurs in the query", () => {
      const hints = createL0Index(catalog).match("open the invoices page");
      expect(hints.titles).toEqual(["Invoices"]);
    });

    it("matches a title of several words when all its significant words occur, in any order", () => {
      const index = createL0Index(catalog);
      expect(index.match("retries of webhook delivery keep failing").titles).toEqual(["Webhook Delivery and Retries"]);
      expect(index.match("webhook delivery").titles).toEqual([]);
    });

    it("keeps C++ and C# as words of their own", () => {
      const index = createL0Index([
        { id: "cpp", source: "cpp.md", keywords: ["C++"] },
        { id: "cs", source: "cs.md", keywords: ["C#"] },
        { id: "c", source: "c.md", keywords: ["C language"] },
      ]);
      expect(index.match("compile c++ code").entries.map((entry) => entry.id)).toEqual(["cpp"]);
      expect(index.match("async in C#?").entries.map((entry) => entry.id)).toEqual(["cs"]);
      expect(index.match("the c language").entries.map((entry) => entry.id)).toEqual(["c"]);
    });

    it("ignores terms shorter than minTermLength", () => {
      const entries: KnowledgeEntry[] = [{ id: "r", source: "r.md", keywords: ["R", "go", "sql"] }];
      expect(createL0Index(entries).match("r and go").keywords).toEqual(["go"]);
      expect(createL0Index(entries, { minTermLength: 1 }).match("r and go").keywords).toEqual(["R", "go"]);
      expect(createL0Index(entries, { minTermLength: 3 }).match("r and go and sql").keywords).toEqual(["sql"]);
    });
  });

  describe("plurals", () => {
    it("matches a singular keyword from a plural word in the query", () => {
      const hints = createL0Index(catalog).match("my webhooks are not delivered");
      expect(hints.keywords).toEqual(["webhook"]);
      expect(hints.entries.map((entry) => entry.id).sort()).toEqual(["billing-invoices", "platform-webhooks"]);
    });

    it("matches a plural term from a singular query word, and common -ies/-es plurals", () => {
      const index = createL0Index([{ id: "a", source: "a.md", keywords: ["access policies", "indexes", "classes", "cookies"] }]);
      expect(index.match("edit the access policy").keywords).toEqual(["access policies"]);
      expect(index.match("rebuild the index").keywords).toEqual(["indexes"]);
      expect(index.match("which class").keywords).toEqual(["classes"]);
      expect(index.match("clear a cookie").keywords).toEqual(["cookies"]);
    });

    it("leaves words ending in ss alone", () => {
      const index = createL0Index([{ id: "a", source: "a.md", keywords: ["access"] }]);
      expect(index.match("acces").keywords).toEqual([]);
      expect(index.match("access rules").keywords).toEqual(["access"]);
    });
  });

  describe("case and width", () => {
    it("matches regardless of letter case", () => {
      const hints = createL0Index(catalog).match("KONG RATE LIMIT");
      expect(hints.keywords).toEqual(["rate limit"]);
      expect(hints.entities).toEqual(["Kong"]);
    });

    it("matches full-width forms against half-width terms and the other way round", () => {
      const index = createL0Index([
        { id: "api", source: "api.md", keywords: ["API"] },
        { id: "sdk", source: "sdk.md", keywords: ["ＳＤＫ"] },
      ]);
      expect(index.match("ＡＰＩ 的调用方式").keywords).toEqual(["API"]);
      expect(index.match("install the sdk").keywords).toEqual(["ＳＤＫ"]);
    });

    it("folds spellings that normalise alike into one hint, keeping the best entry's spelling", () => {
      const index = createL0Index([
        { id: "a", source: "a.md", keywords: ["API", "billing"] },
        { id: "b", source: "b.md", keywords: ["ａｐｉ"] },
      ]);
      const hints = index.match("billing api");
      expect(hints.keywords).toEqual(["API", "billing"]);
      expect(hints.entries.map((entry) => entry.id)).toEqual(["a", "b"]);
      expect(hints.entries[1]?.matches).toEqual([{ field: "keyword", term: "ａｐｉ" }]);
    });
  });

  describe("domains", () => {
    it("R4: lists the distinct domains of the matched entries once each", () => {
      const hints = createL0Index(catalog).match("refund policy, invoices and the retry policy of webhooks");
      expect(hints.entries.map((entry) => entry.id)).toEqual(["billing-invoices", "billing-refunds", "platform-webhooks"]);
      expect(hints.domains).toEqual(["billing", "platform"]);
      expect(hints).not.toHaveProperty("otherDomains");
      const ordinary = createL0Index(catalog).match("webhook");
      expect(ordinary.domains).toEqual([]);
      expect(ordinary.otherDomains).toEqual(["billing", "platform"]);
    });

    it("R7: matches the entries of a domain the query names, through field domain; a one-word domain is only otherDomains", () => {
      const hints = createL0Index(catalog).match("billing questions");
      expect(hints.domains).toEqual([]);
      expect(hints.otherDomains).toEqual(["billing"]);
      expect(hints.entries.map((entry) => entry.id)).toEqual(["billing-refunds", "billing-invoices"]);
      expect(hints.entries[0]?.matches).toEqual([{ field: "domain", term: "billing" }]);
      expect(hints.keywords).toEqual([]);
      const named = createL0Index([{ id: "a", source: "a.md", domain: "api-gateway" }]).match("api-gateway questions");
      expect(named.domains).toEqual(["api-gateway"]);
    });

    it("trims domains and ignores blank ones", () => {
      const index = createL0Index(
        [
          { id: "a", source: "a.md", keywords: ["data export"], domain: "  reporting " },
          { id: "b", source: "b.md", keywords: ["data export"], domain: "   " },
          { id: "c", source: "c.md", keywords: ["data export"] },
          { id: "d", source: "d.md", keywords: ["data export"], domain: "reporting" },
        ],
        { maxTermShare: 1 },
      );
      const hints = index.match("data export to csv");
      expect(hints.domains).toEqual(["reporting"]);
      expect(hints.entries.map((entry) => entry.domain)).toEqual(["reporting", undefined, undefined, "reporting"]);
      expect(hints.entries[1]).not.toHaveProperty("domain");
    });

    it("keeps domains that differ only in case apart, since they become exact filters", () => {
      const index = createL0Index([
        { id: "a", source: "a.md", keywords: ["data export"], domain: "Reporting" },
        { id: "b", source: "b.md", keywords: ["data export"], domain: "reporting" },
      ]);
      expect(index.match("data export").domains).toEqual(["Reporting", "reporting"]);
    });
  });

  describe("ranking and determinism", () => {
    it("puts entries with more matches first, then longer matches, then input order", () => {
      const index = createL0Index([
        { id: "short", source: "1.md", keywords: ["cache"] },
        { id: "long", source: "2.md", keywords: ["cache invalidation"] },
        { id: "two", source: "3.md", keywords: ["cache", "ttl"] },
        { id: "short-again", source: "4.md", keywords: ["cache"] },
      ]);
      const hints = index.match("cache invalidation and ttl");
      expect(hints.entries.map((entry) => entry.id)).toEqual(["two", "long", "short", "short-again"]);
      expect(hints.keywords).toEqual(["cache", "ttl", "cache invalidation"]);
    });

    it("gives the same hints for the same query and the same entries, every time", () => {
      const first = createL0Index(catalog).match("Stripe webhook retries and refund policy in billing");
      const again = createL0Index(catalog);
      for (let round = 0; round < 5; round += 1) {
        expect(again.match("Stripe webhook retries and refund policy in billing")).toEqual(first);
      }
      expect(first.entries.map((entry) => entry.id)).toEqual(["billing-refunds", "billing-invoices", "platform-webhooks"]);
    });

    it("lists each matched term once even when the query repeats it", () => {
      const hints = createL0Index(catalog).match("refund refund refunds");
      expect(hints.keywords).toEqual(["refund"]);
      expect(hints.entries[0]?.matches).toEqual([{ field: "keyword", term: "refund" }]);
    });

    it("lists an entry's matches by field (title, keyword, domain, entity), then by their order in the entry", () => {
      const index = createL0Index([
        {
          id: "a",
          source: "a.md",
          title: "Search",
          keywords: ["ranking", "search"],
          domain: "search",
          entities: ["OpenSearch", "search"],
        },
      ]);
      expect(index.match("search ranking").entries[0]?.matches).toEqual([
        { field: "title", term: "Search" },
        { field: "keyword", term: "ranking" },
        { field: "keyword", term: "search" },
        { field: "domain", term: "search" },
        { field: "entity", term: "search" },
      ]);
    });

    it("returns at most maxEntries entries, but lists the terms and domains of all matched entries", () => {
      const entries: KnowledgeEntry[] = Array.from({ length: 30 }, (_, position) => ({
        id: `doc-${position}`,
        source: `doc-${position}.md`,
        keywords: ["rate quota", `topic${position}`],
        domain: `domain-${position % 3}`,
      }));
      entries.push({ id: "best", source: "best.md", keywords: ["rate quota", "burst rate quota"], domain: "domain-9" });
      const index = createL0Index(entries, { maxEntries: 5, maxTermShare: 1 });
      const hints = index.match("burst rate quota for topic29");
      expect(hints.entries.map((entry) => entry.id)).toEqual(["best", "doc-29", "doc-0", "doc-1", "doc-2"]);
      expect(hints.domains).toEqual(["domain-9", "domain-2", "domain-0", "domain-1"]);
      expect(hints.keywords).toEqual(["rate quota", "burst rate quota", "topic29"]);
      expect(createL0Index(entries, { maxTermShare: 1 }).match("rate quota").entries).toHaveLength(20);
    });
  });

  it("keeps its own copy of the entries", () => {
    const entries: KnowledgeEntry[] = [{ id: "a", source: "a.md", keywords: ["ledger"] }];
    const index = createL0Index(entries);
    (entries[0] as KnowledgeEntry).keywords?.push("journal");
    (entries[0] as KnowledgeEntry).id = "changed";
    expect(index.match("journal").entries).toEqual([]);
    expect(index.match("ledger").entries[0]?.id).toBe("a");
  });

  it("refuses options that are not positive whole numbers, naming the option", () => {
    expect(() => createL0Index(catalog, { minTermLength: 0 })).toThrow(/minTermLength=0: must be at least 1/);
    expect(() => createL0Index(catalog, { maxEntries: 2.5 })).toThrow(/maxEntries=2.5: must be a whole number/);
    const error = (() => {
      try {
        createL0Index(catalog, { maxEntries: "5" as unknown as number });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(ConfigurationError.isInstance(error)).toBe(true);
    expect((error as ConfigurationError).key).toBe("maxEntries");
  });

  it("refuses a query that is not a string", () => {
    const index = createL0Index(catalog);
    expect(() => index.match(42 as unknown as string)).toThrow(/must be a string/);
    try {
      index.match(undefined as unknown as string);
    } catch (error) {
      expect(InvalidQueryError.isInstance(error)).toBe(true);
    }
  });
});
