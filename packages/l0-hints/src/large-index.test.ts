import type { KnowledgeEntry } from "@lookup-knowledge/core";
import { beforeAll, describe, expect, it } from "vitest";
import { createL0Index } from "./create-l0-index.js";
import type { L0Index } from "./l0-index.js";

const entryCount = 100_000;
const domains = ["billing", "search", "identity", "storage", "network", "analytics", "mobile", "payments", "support", "compliance"];
const syllables = ["ka", "lo", "mi", "ra", "ve", "tu", "no", "bi", "ze", "po", "di", "fa", "ku", "re", "to", "ma", "le", "gi", "wo", "ne"];
const hanzi = [
  ...new Set("云数据库网关存储计算安全监控日志告警备份恢复迁移容器集群节点镜像权限审计账单发票订支付退款消息队列缓索引搜推荐"),
];

/** A made-up word unique to `position`, e.g. "kalomira". */
function nameOf(position: number): string {
  let name = "";
  let rest = position;
  for (let digit = 0; digit < 4; digit += 1) {
    name += syllables[rest % syllables.length];
    rest = Math.floor(rest / syllables.length);
  }
  return name;
}

/** Three Chinese characters unique to `position`. */
function hanziOf(position: number): string {
  let text = "";
  let rest = position;
  for (let digit = 0; digit < 3; digit += 1) {
    text += hanzi[rest % hanzi.length];
    rest = Math.floor(rest / hanzi.length);
  }
  return text;
}

function generatedEntry(position: number): KnowledgeEntry {
  const keywords = [`sku-${position}`, `模块${hanziOf(position)}`];
  if (position % 1000 === 0) keywords.push("webhook");
  return {
    id: `doc-${position}`,
    source: `docs/${domains[position % domains.length]}/${position}.md`,
    title: `Project ${nameOf(position)} Handbook`,
    keywords,
    domain: domains[position % domains.length],
    entities: [`svc${position}`],
  };
}

describe("an index of 100k entries", () => {
  let index: L0Index;

  beforeAll(() => {
    // Every term may match here, however many entries hold it: these tests are about scale.
    index = createL0Index(
      Array.from({ length: entryCount }, (_, position) => generatedEntry(position)),
      { maxTermShare: 1 },
    );
  });

  it("holds every entry", () => {
    expect(index.size).toBe(entryCount);
  });

  it("R4: finds the one entry a unique keyword names, among 100k", () => {
    for (const position of [0, 1, 4_242, 73_123, 99_999]) {
      const hints = index.match(`where is the changelog of SKU-${position}?`);
      expect(hints.entries.map((entry) => entry.id)).toEqual([`doc-${position}`]);
      expect(hints.keywords).toEqual([`sku-${position}`]);
      expect(hints.domains).toEqual([domains[position % domains.length]]);
    }
  });

  it("matches a unique Chinese keyword inside a sentence, although 100k keywords share its first two characters", () => {
    for (const position of [7, 31_337, 88_888]) {
      const hints = index.match(`请问模块${hanziOf(position)}怎么部署？`);
      expect(hints.entries.map((entry) => entry.id)).toEqual([`doc-${position}`]);
      expect(hints.keywords).toEqual([`模块${hanziOf(position)}`]);
    }
  });

  it("matches a title by its significant words in any order", () => {
    const position = 54_321;
    const hints = index.match(`handbook for the ${nameOf(position)} project`);
    expect(hints.titles).toEqual([`Project ${nameOf(position)} Handbook`]);
    expect(hints.entries.map((entry) => entry.id)).toEqual([`doc-${position}`]);
    expect(index.match("project handbook").entries).toEqual([]);
  });

  it("matches entities on word boundaries only", () => {
    expect(index.match("restart svc1234 now").entries.map((entry) => entry.id)).toEqual(["doc-1234"]);
    expect(index.match("restart svc12345678 now").entries).toEqual([]);
  });

  it("caps a query that names a domain of 10k entries at the best 20, in input order (R7: a one-word domain is only otherDomains)", () => {
    const hints = index.match("billing");
    expect(hints.domains).toEqual([]);
    expect(hints.otherDomains).toEqual(["billing"]);
    expect(hints.entries.map((entry) => entry.id)).toEqual(Array.from({ length: 20 }, (_, rank) => `doc-${rank * domains.length}`));
    expect(hints.entries.every((entry) => entry.matches.length === 1 && entry.matches[0]?.field === "domain")).toBe(true);
  });

  it("ranks the entry with the most matches first when a common keyword is involved", () => {
    const hints = index.match("webhooks of sku-5000");
    expect(hints.entries[0]?.id).toBe("doc-5000");
    expect(hints.entries[0]?.matches).toEqual([
      { field: "keyword", term: "sku-5000" },
      { field: "keyword", term: "webhook" },
    ]);
    expect(hints.entries.map((entry) => entry.id).slice(1, 4)).toEqual(["doc-0", "doc-1000", "doc-2000"]);
    expect(hints.domains).toEqual(["billing"]);
  });

  it("finds exactly the entries that two unique terms name, for many sampled queries", () => {
    for (let sample = 0; sample < 200; sample += 1) {
      const first = (sample * 7_919) % entryCount;
      const second = (sample * 104_729 + 13) % entryCount;
      const query = `compare svc${first} with sku-${second}`;
      const expected = new Set([`doc-${first}`, `doc-${second}`]);
      const found = index.match(query).entries.map((entry) => entry.id);
      expect(new Set(found)).toEqual(expected);
    }
  });
});
