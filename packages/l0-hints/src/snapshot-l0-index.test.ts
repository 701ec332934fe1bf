import { createHash } from "node:crypto";
import { LookupKnowledgeError, type KnowledgeEntry } from "@lookup-knowledge/core";
import { analyzerVersion } from "@lookup-knowledge/text";
import { describe, expect, it } from "vitest";
import { createL0Index } from "./create-l0-index.js";
import type { L0Index } from "./l0-index.js";
import { l0IndexSources } from "./l0-index-sources.js";
import { l0SnapshotVersion } from "./l0-snapshot-layout.js";
import { restoreL0Index } from "./restore-l0-index.js";
import { snapshotL0Index } from "./snapshot-l0-index.js";

// Issue 36 item 5: a query opens the L0 index from a snapshot written at ingest instead of
// building it from every entry; the snapshot's hints must be a fresh build's, and a damaged or
// stale snapshot must never give hints.

const syllables = ["ka", "ro", "mi", "tu", "sel", "van", "dor", "pex"];
const words = [
  ...syllables.flatMap((first) => syllables.map((second) => `${first}${second}`)),
  "rate",
  "limit",
  "gateway",
  "plugin",
  "route",
  "upstream",
  "secret",
  "webhook",
  "audit",
  "log",
  "token",
  "OAuth2",
];
const cjk = ["限流", "网关插件", "慢查询日志", "令牌桶", "审计日志", "密钥轮换"];

/** Deterministic entries mixing titles, keywords, domains, entities, CJK terms and metadata. */
function sampleEntries(count: number): KnowledgeEntry[] {
  let seed = 7;
  const next = (limit: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % limit;
  };
  return Array.from({ length: count }, (_, index) => {
    const pick = () => (words[next(words.length)] as string) + (next(3) === 0 ? ` ${words[next(words.length)]}` : "");
    return {
      id: `doc-${index}`,
      source: `docs/${index}.md`,
      ...(next(5) === 0 ? {} : { title: next(4) === 0 ? `${cjk[next(cjk.length)]}配置` : `Configuring ${pick()} ${pick()}` }),
      keywords: [pick(), next(2) === 0 ? (cjk[next(cjk.length)] as string) : pick(), "  "],
      ...(next(6) === 0 ? {} : { domain: ["gateway", "security", "billing", "网关"][next(4)] as string }),
      entities: next(3) === 0 ? ["Kong", "TiDB 集群"].slice(0, 1 + next(2)) : [],
      ...(next(2) === 0 ? { metadata: { tenant: next(2) === 0 ? "a" : "b", tags: ["x"] } } : {}),
    };
  });
}

/** The digest of the fixed snapshot at layout version 2 (see the test that pins it). */
const pinnedDigest = "7e9fe4694c0d55622e7c926843b3d3f4a1b3b2df8fcff2edb4f911dc64873d5d";

const queries = [
  "How do I set a rate limit in Kong?",
  "configuring webhook secret rotation",
  "OAuth2 token audit log",
  "如何配置网关的限流插件",
  "慢查询日志在哪里",
  "TiDB 集群 审计日志 and gateway plugin",
  "route upstream",
  "nothing here at all",
];

describe("snapshotL0Index and restoreL0Index", () => {
  it("issue 36 item 5: a restored snapshot gives a fresh build's hints, in English and Chinese, and within(scope)", () => {
    const entries = sampleEntries(400);
    const common = (term: string) => term.toLowerCase().includes("gateway");
    const inScope = (scope: unknown) => (term: string) => JSON.stringify(scope).includes("a") && term.includes("rate");
    const options = { isCommonTerm: common, isCommonTermIn: inScope, maxTermShare: 0.05 };
    const fresh = createL0Index(entries, options);
    const restored = restoreL0Index(snapshotL0Index(entries, options), { isCommonTermIn: inScope, maxTermShare: 0.05 });
    expect(restored.size).toBe(fresh.size);
    expect(l0IndexSources(restored)).toEqual(entries.map((entry) => entry.source));
    expect(l0IndexSources(fresh)).toEqual(entries.map((entry) => entry.source));
    let matched = 0;
    const derived = entries.slice(0, 60).map((entry, index) => `${entry.keywords?.[0]} and ${entries[index * 3]?.title ?? "nothing"}`);
    for (const query of [...queries, ...derived]) {
      const hints = restored.match(query);
      expect(hints, query).toEqual(fresh.match(query));
      if (hints.entries.length > 0) matched += 1;
    }
    expect(matched).toBeGreaterThan(30);
    const scope = { filter: { tenant: "a" }, admits: (entry: KnowledgeEntry) => entry.metadata?.["tenant"] === "a" };
    const freshScoped = fresh.within?.(scope) as L0Index;
    const restoredScoped = restored.within?.(scope) as L0Index;
    expect(restoredScoped.size).toBe(freshScoped.size);
    expect(restoredScoped.size).toBeLessThan(fresh.size);
    for (const query of [...queries, ...derived]) expect(restoredScoped.match(query), query).toEqual(freshScoped.match(query));
  });

  it("issue 36 review: the bytes of a fixed snapshot are pinned to l0SnapshotVersion (a change in what the index builds must bump it)", () => {
    // A snapshot is keyed by l0SnapshotVersion and the analyser's version only: were the index
    // built differently from the same entries without a bump, an upgrade would keep opening
    // snapshots of the old build and give other hints than a fresh one. When this fails, bump
    // l0SnapshotVersion (l0-snapshot-layout.ts) and pin the new digest beside it.
    const snapshot = snapshotL0Index(sampleEntries(200), { isCommonTerm: (term) => term.includes("rate"), maxTermShare: 0.05 });
    const digest = createHash("sha256").update(snapshot).digest("hex");
    expect({ version: l0SnapshotVersion, analyzerVersion, digest }).toEqual({ version: 2, analyzerVersion, digest: pinnedDigest });
  });

  it("issue 36 item 5: the answers of isCommonTerm are recorded, not asked again", () => {
    const entries = sampleEntries(50);
    const asked: string[] = [];
    const snapshot = snapshotL0Index(entries, { isCommonTerm: () => true });
    const restored = restoreL0Index(snapshot, {
      isCommonTerm: (term) => {
        asked.push(term);
        return false;
      },
    });
    expect(asked).toEqual([]);
    const fresh = createL0Index(entries, { isCommonTerm: () => true });
    for (const query of queries) expect(restored.match(query)).toEqual(fresh.match(query));
  });

  it("issue 36 item 5: other options or another layout version are stale, never read", () => {
    const snapshot = snapshotL0Index(sampleEntries(20));
    expect(() => restoreL0Index(snapshot, { maxEntries: 5 })).toThrow(/maxEntries 20, not 5/);
    const code = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return LookupKnowledgeError.isInstance(error) ? error.code : "other";
      }
      return "none";
    };
    expect(code(() => restoreL0Index(snapshot, { minTermLength: 3 }))).toBe("stale_l0_snapshot");
    const headLength = new DataView(snapshot.buffer).getUint32(0, true);
    const head = new TextDecoder().decode(snapshot.subarray(4, 4 + headLength));
    const older = new TextEncoder().encode(head.replace(`{"version":${l0SnapshotVersion},`, '{"version":0,'));
    expect(older.length).toBe(headLength);
    const copy = snapshot.slice();
    copy.set(older, 4);
    expect(code(() => restoreL0Index(copy))).toBe("stale_l0_snapshot");
    expect(code(() => restoreL0Index(snapshot))).toBe("none");
    // A Node Buffer at an odd offset of a shared pool (as a file read gives) restores alike.
    const pooled = Buffer.concat([Buffer.from([1, 2, 3]), snapshot]).subarray(3);
    expect(restoreL0Index(pooled).match("route upstream")).toEqual(restoreL0Index(snapshot).match("route upstream"));
  });

  it("issue 36 item 5: damaged bytes throw invalid_l0_snapshot, never an index", () => {
    const snapshot = snapshotL0Index(sampleEntries(60));
    const code = (bytes: Uint8Array) => {
      try {
        restoreL0Index(bytes);
      } catch (error) {
        return LookupKnowledgeError.isInstance(error) ? error.code : "other";
      }
      return "none";
    };
    expect(code(snapshot.subarray(0, 3))).toBe("invalid_l0_snapshot");
    expect(code(snapshot.subarray(0, snapshot.length - 9))).toBe("invalid_l0_snapshot");
    const badHead = snapshot.slice();
    badHead[5] = 0x7b;
    expect(code(badHead)).toBe("invalid_l0_snapshot");
    // A posting pointing past the entries: the structure check refuses it.
    const headLength = new DataView(snapshot.buffer).getUint32(0, true);
    const head = JSON.parse(new TextDecoder().decode(snapshot.subarray(4, 4 + headLength))) as {
      sections: Record<string, [number, number]>;
    };
    const dataStart = Math.ceil((4 + headLength) / 8) * 8;
    const postingEntry = head.sections["postingEntry"] as [number, number];
    const badPosting = snapshot.slice();
    new DataView(badPosting.buffer).setInt32(dataStart + postingEntry[0], 1_000_000, true);
    expect(code(badPosting)).toBe("invalid_l0_snapshot");
    // A posting before the first entry (-1, which the order check alone let through) is refused too (issue 36 review).
    const negativePosting = snapshot.slice();
    new DataView(negativePosting.buffer).setInt32(dataStart + postingEntry[0], -1, true);
    expect(code(negativePosting)).toBe("invalid_l0_snapshot");
    // An entry's JSON damaged: read when asked for (a query returning it, the sources), and refused then.
    const entries = head.sections["entries"] as [number, number];
    const badEntry = snapshot.slice();
    badEntry[dataStart + entries[0]] = 0x7b;
    const restored = restoreL0Index(badEntry);
    expect(() => l0IndexSources(restored)).toThrow(/L0 snapshot is damaged: entry 0 is not JSON/);
  });
});
