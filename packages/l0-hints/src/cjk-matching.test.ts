import type { KnowledgeEntry } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { createL0Index } from "./create-l0-index.js";

const chineseCatalog: KnowledgeEntry[] = [
  {
    id: "gateway-throttle",
    source: "docs/网关/限流.md",
    title: "网关限流插件配置",
    keywords: ["限流", "令牌桶"],
    domain: "网关",
    entities: ["APISIX"],
  },
  {
    id: "mysql-slow-log",
    source: "docs/数据库/慢查询.md",
    title: "慢查询日志",
    keywords: ["慢查询", "long_query_time"],
    domain: "数据库",
    entities: ["MySQL"],
  },
  {
    id: "tidb-scale-out",
    source: "docs/数据库/tidb-扩容.md",
    title: "TiDB 集群扩容指南",
    keywords: ["TiDB 集群", "扩容"],
    domain: "数据库",
    entities: ["TiUP"],
  },
  {
    id: "invoice-issue",
    source: "docs/财务/发票.md",
    title: "电子发票开具流程",
    keywords: ["电子发票", "增值税"],
    domain: "财务",
    entities: ["金税盘"],
  },
];

const ids = (query: string, entries = chineseCatalog, options?: { minTermLength?: number }): string[] =>
  createL0Index(entries, options)
    .match(query)
    .entries.map((entry) => entry.id);

describe("CJK matching", () => {
  it("R4: matches a Chinese keyword inside an unsegmented sentence (two characters: listed, but its domain is only otherDomains)", () => {
    const hints = createL0Index(chineseCatalog).match("如何配置网关的限流插件");
    expect(hints.keywords).toEqual(["限流"]);
    expect(hints.domains).toEqual([]);
    expect(hints.otherDomains).toEqual(["网关"]);
    expect(hints.entries.map((entry) => entry.id)).toEqual(["gateway-throttle"]);
    expect(hints.entries[0]?.matches).toEqual([
      { field: "keyword", term: "限流" },
      { field: "domain", term: "网关" },
    ]);
  });

  it("R4: matches a Chinese title inside a question with full-width punctuation", () => {
    const hints = createL0Index(chineseCatalog).match("怎么查看慢查询日志？");
    expect(hints.titles).toEqual(["慢查询日志"]);
    expect(hints.keywords).toEqual(["慢查询"]);
    expect(hints.entries.map((entry) => entry.id)).toEqual(["mysql-slow-log"]);
  });

  it("matches several terms of different entries in one sentence", () => {
    const hints = createL0Index(chineseCatalog).match("开电子发票时增值税税率怎么填，限流会影响吗");
    expect(hints.keywords).toEqual(["电子发票", "增值税", "限流"]);
    expect(hints.entries.map((entry) => entry.id)).toEqual(["invoice-issue", "gateway-throttle"]);
    expect(hints.domains).toEqual(["财务"]);
    expect(hints.otherDomains).toEqual(["网关"]);
  });

  it("matches mixed Latin and CJK terms whatever the spacing between the scripts", () => {
    expect(ids("tidb集群怎么扩容")).toEqual(["tidb-scale-out"]);
    expect(ids("TiDB 集群 怎么 扩容")).toEqual(["tidb-scale-out"]);
    const hints = createL0Index(chineseCatalog).match("ＴｉＤＢ集群扩容指南");
    expect(hints.titles).toEqual(["TiDB 集群扩容指南"]);
    expect(hints.keywords).toEqual(["TiDB 集群", "扩容"]);
  });

  it("does not let the Latin part of a mixed term cut into a longer word", () => {
    const entries: KnowledgeEntry[] = [{ id: "db", source: "db.md", keywords: ["DB 集群"] }];
    expect(ids("tidb集群怎么扩容", entries)).toEqual([]);
    expect(ids("db集群怎么扩容", entries)).toEqual(["db"]);
    expect(ids("我的 db 集群", entries)).toEqual(["db"]);
  });

  it("matches Latin terms written inside a Chinese sentence", () => {
    const hints = createL0Index(chineseCatalog).match("mysql的long_query_time设置多少合适");
    expect(hints.entities).toEqual(["MySQL"]);
    expect(hints.keywords).toEqual(["long_query_time"]);
    expect(ids("怎么用apisix做限流")).toEqual(["gateway-throttle"]);
  });

  it("matches Japanese kana and Korean terms inside sentences", () => {
    const entries: KnowledgeEntry[] = [
      { id: "cache", source: "ja/cache.md", title: "キャッシュのクリア", keywords: ["キャッシュ"] },
      { id: "auth", source: "ja/auth.md", keywords: ["認証トークン"] },
      { id: "server", source: "ko/server.md", keywords: ["서버 설정"], domain: "인프라" },
    ];
    expect(ids("ブラウザのキャッシュをクリアする方法", entries)).toEqual(["cache"]);
    expect(ids("認証トークンの有効期限は？", entries)).toEqual(["auth"]);
    expect(ids("ｷｬｯｼｭを消したい", entries)).toEqual(["cache"]);
    expect(ids("서버 설정은 어디에서 바꾸나요?", entries)).toEqual(["server"]);
    expect(ids("서버설정 방법", entries)).toEqual(["server"]);
    expect(createL0Index(entries).match("인프라 문의").domains).toEqual(["인프라"]);
  });

  it("does not match single-character CJK terms by default", () => {
    const entries: KnowledgeEntry[] = [
      { id: "single", source: "s.md", title: "库", keywords: ["表", "锁"], entities: ["云"] },
      { id: "pair", source: "p.md", keywords: ["死锁"] },
    ];
    const hints = createL0Index(entries).match("表被锁了，是不是死锁？");
    expect(hints.entries.map((entry) => entry.id)).toEqual(["pair"]);
    expect(hints.keywords).toEqual(["死锁"]);
  });

  it("matches single-character CJK terms when minTermLength is 1", () => {
    const entries: KnowledgeEntry[] = [
      { id: "single", source: "s.md", keywords: ["表", "锁"] },
      { id: "pair", source: "p.md", keywords: ["死锁"] },
    ];
    const hints = createL0Index(entries, { minTermLength: 1 }).match("表被锁了，是不是死锁？");
    expect(hints.entries.map((entry) => entry.id)).toEqual(["single", "pair"]);
    expect(hints.keywords).toEqual(["表", "锁", "死锁"]);
  });

  it("prefers the entry with more and longer CJK matches", () => {
    const entries: KnowledgeEntry[] = [
      { id: "short", source: "a.md", keywords: ["发票"] },
      { id: "long", source: "b.md", keywords: ["电子发票"] },
      { id: "both", source: "c.md", keywords: ["发票", "红冲"] },
    ];
    expect(ids("电子发票怎么红冲", entries)).toEqual(["both", "long", "short"]);
  });

  it("finds terms that overlap or repeat in the query once each", () => {
    const entries: KnowledgeEntry[] = [{ id: "a", source: "a.md", keywords: ["数据库", "据库"] }];
    const hints = createL0Index(entries).match("数据库和数据库备份");
    expect(hints.keywords).toEqual(["数据库", "据库"]);
    expect(hints.entries[0]?.matches).toHaveLength(2);
  });
});
