import { lexicalTerms } from "@lookup-knowledge/text";
import { describe, expect, it } from "vitest";
import { PendingChanges } from "./pending-changes.js";

/** What `countTerms` must give: each distinct term once, in the order it first occurs, with its count capped at 65535. */
function counted(pending: PendingChanges, terms: Parameters<PendingChanges["countTerms"]>[0]): Array<[string, number]> {
  const { terms: ids, frequencies } = pending.countTerms(terms);
  return [...ids].map((id, at) => [pending.dictionaryTerms[id] as string, frequencies[at] as number]);
}

function expected(terms: readonly string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return [...counts].map(([term, count]) => [term, Math.min(count, 65_535)]);
}

describe("PendingChanges.countTerms", () => {
  it("issue 36 item 4: counts each record's terms in first-occurrence order, record after record, past thousands of terms and a capped frequency", () => {
    const pending = new PendingChanges(0);
    const records = [
      ["b", "a", "b", "c", "a", "b"],
      [],
      ["c", "d", "c"],
      Array.from({ length: 3000 }, (_, at) => `t${at % 1500}`),
      [...Array.from({ length: 70_000 }, () => "often"), "rare", "b"],
      ["a", "b"],
    ];
    for (const terms of records) expect(counted(pending, terms)).toEqual(expected(terms));
    // One dictionary id per distinct term over all records.
    expect(new Set(pending.dictionaryTerms).size).toBe(pending.dictionaryTerms.length);
    expect(pending.dictionaryTerms.slice(0, 4)).toEqual(["b", "a", "c", "d"]);
  });

  it("issue 36 item 4: record numbers past 2^32 records start again, the counts unchanged (no term of a record taken for one of a record 2^32 before)", () => {
    const pending = new PendingChanges(0);
    const records = [["a", "b", "a"], ["b", "c"], ["a"], ["c", "a", "c"], ["b"]];
    expect(counted(pending, records[0] as string[])).toEqual(expected(records[0] as string[]));
    // As after 2^32 - 3 records more.
    (pending as unknown as { counting: { current: number } }).counting.current = 0xffffffff - 2;
    for (let round = 0; round < 3; round += 1) for (const terms of records) expect(counted(pending, terms)).toEqual(expected(terms));
  });

  it("issue 36 item 4: a text analysed into ids (analyse) counts as its lexicalTerms do, also when other pending changes analysed it", () => {
    const texts = [
      "Rate limiting: the limit-count plugin limits requests; getUserName limits HTTPServer rates.",
      "",
      "如何配置基于Redis集群的分布式限流 limit limit",
      "Straße café v20 C++ C# rate_limit",
    ];
    const byTerms = new PendingChanges(0);
    const byIds = new PendingChanges(0);
    const elsewhere = new PendingChanges(0);
    elsewhere.countTerms(["zzz", "limit"]);
    for (const text of texts) {
      const expected = counted(byTerms, lexicalTerms(text));
      expect(counted(byIds, byIds.analyse(text)), text).toEqual(expected);
      // Ids of another dictionary are read as its terms, not taken as ids of this one.
      expect(counted(byIds, elsewhere.analyse(text)), text).toEqual(expected);
    }
    expect(byIds.dictionaryTerms).toEqual(byTerms.dictionaryTerms);
  });

  it("issue 36 item 4: analyse counts a text's terms at once (first-occurrence order, frequencies capped at 65535, length their sum), each record's counts its own after the next text is analysed", () => {
    const texts = [
      "limits limit rate rate-limit getUserName",
      "zebra ".repeat(70_000) + "limit",
      "",
      "如何配置基于Redis集群的分布式限流 limit limit",
    ];
    const byTerms = new PendingChanges(0);
    const byIds = new PendingChanges(0);
    const analysed = texts.map((text) => byIds.analyse(text));
    texts.forEach((text, index) => {
      const terms = lexicalTerms(text);
      const record = analysed[index] as ReturnType<PendingChanges["analyse"]>;
      const got = [...record.terms].map((id, at) => [byIds.dictionaryTerms[id] as string, record.frequencies[at] as number]);
      expect(got, text).toEqual(counted(byTerms, terms));
      expect(record.length, text).toBe(got.reduce((sum, [, frequency]) => sum + (frequency as number), 0));
    });
    expect(analysed[1]?.length).toBe(65_535 + 1);
    expect(analysed[2]?.terms.length).toBe(0);
  });
});
