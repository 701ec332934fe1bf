import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseQuestionFile } from "@lookup-knowledge/agent-tool/evaluation";
import type { KnowledgeGapGroup, KnowledgeGapReport } from "@lookup-knowledge/trace-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadCliConfig } from "./cli-config.js";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";
import { withLookupKnowledgeBase } from "./with-lookup-knowledge-base.js";

// Issue 37's test: a few hundred lookups recorded over the example base through the real tool
// (the retriever `query` runs, recording into the data folder's spool), then `gaps` run as
// the built command reads them.

/** Answerable: the example base answers each; none may appear in a gap. */
const answerable = [
  "What are the API rate limits?",
  "如何申请退款？",
  "How do I enable two-factor authentication?",
  "Who can see the audit log?",
];
/** Near the domain (payments, staff), out of scope. */
const bitcoin = ["Can I pay with bitcoin?", "Do you accept bitcoin for invoices?", "bitcoin payment fees"];
const chineseBitcoin = ["如何用比特币付款？", "比特币付款手续费是多少？", "可以用比特币支付发票吗？"];
const payroll = ["How do I run payroll for my employees?", "payroll tax filing", "Does Lumen do payroll?"];
/** Unrelated. */
const weather = ["weather in Paris tomorrow", "weather forecast for Berlin"];
/** Answerable, but asked under a threshold no score reaches: a page we have and refuse. */
const webhookSignatures = ["How do I verify webhook signatures?", "webhook signature verification"];
/** A query carrying a terminal escape and a bidi override: never raw on the terminal. */
const hostile = "bitcoin \u001b[31mred\u001b[0m payout \u202e";

const strictThreshold = 0.9999;

async function record(cwd: string, data: string, configFile: string | undefined, lookups: Array<[string, number]>): Promise<void> {
  const config = await loadCliConfig({ cwd, dataDirectory: data, ...(configFile ? { configFile } : {}) });
  await withLookupKnowledgeBase(
    config,
    () => undefined,
    async (knowledgeBase) => {
      for (const [query, times] of lookups) for (let time = 0; time < times; time += 1) await knowledgeBase.retriever.lookup(query);
    },
  );
}

function groupWith(report: KnowledgeGapReport, example: string): KnowledgeGapGroup | undefined {
  return report.groups.find((group) => group.examples.includes(example));
}

describe("lookup-knowledge gaps over the example base (issue 37)", () => {
  let cwd: string;
  let report: KnowledgeGapReport;
  let recorded = 0;

  beforeAll(async () => {
    cwd = mkdtempSync(join(tmpdir(), "lk-gaps-"));
    writeFileSync(join(cwd, "strict.json"), JSON.stringify({ "rag.reference-threshold": strictThreshold }));
    writeFileSync(
      join(cwd, "hashed.json"),
      JSON.stringify({ "traces.store-query": "hash", "traces.query-hash-key": "gaps-test-key-of-sixteen" }),
    );
    for (const data of ["data", "hashed-data"]) {
      const ingest = await runLookupKnowledge(cwd, "--data", data, "ingest", exampleKnowledgeBase, "--no-progress");
      expect(ingest.code, ingest.stderr).toBe(0);
    }
    const lookups: Array<[string, number]> = [
      ...answerable.map((query): [string, number] => [query, 20]),
      ...bitcoin.map((query, index): [string, number] => [query, 12 - index]),
      ...chineseBitcoin.map((query, index): [string, number] => [query, 9 - index]),
      ...payroll.map((query, index): [string, number] => [query, 8 - index]),
      ...weather.map((query): [string, number] => [query, 6]),
      [hostile, 1],
    ];
    await record(cwd, "data", undefined, lookups);
    await record(
      cwd,
      "data",
      "strict.json",
      webhookSignatures.map((query): [string, number] => [query, 15]),
    );
    await record(cwd, "hashed-data", "hashed.json", lookups);
    recorded = [...lookups, ...webhookSignatures.map((query): [string, number] => [query, 15])].reduce((sum, [, times]) => sum + times, 0);
    const gaps = await runLookupKnowledge(cwd, "--data", "data", "gaps", "--json");
    expect(gaps.code, gaps.stderr).toBe(0);
    report = JSON.parse(gaps.stdout) as KnowledgeGapReport;
  }, 240_000);

  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it("issue 37 item 5: a few hundred lookups were recorded through the real tool, and only the refused and low-relevance ones are read", () => {
    expect(recorded).toBeGreaterThanOrEqual(200);
    const refusedByThreshold = 30;
    const answered = answerable.length * 20;
    expect(report.lookupsRead).toBeLessThanOrEqual(recorded - answered);
    expect(report.lookupsRead).toBeGreaterThanOrEqual(refusedByThreshold + 27 + 24 + 21 + 10);
    expect(report.groups.flatMap((group) => group.examples).filter((query) => answerable.includes(query))).toEqual([]);
  });

  it("issue 37 item 1: queries sharing their salient terms group together, Chinese and English alike, largest first", () => {
    for (const family of [bitcoin, chineseBitcoin, payroll, weather, webhookSignatures]) {
      const group = groupWith(report, family[0] as string);
      expect(group, family[0]).toBeDefined();
      for (const query of family) expect(group?.examples, query).toContain(query);
    }
    // jieba's words of 比特币 (the index's own analysis), shared by the three Chinese questions.
    expect(groupWith(report, chineseBitcoin[0] as string)?.terms.some((term) => "比特币".includes(term))).toBe(true);
    expect(groupWith(report, payroll[0] as string)?.terms).toContain("payroll");
    const sizes = report.groups.map((group) => group.lookups);
    expect(sizes).toEqual([...sizes].sort((left, right) => right - left));
  });

  it("issue 37 item 1: out-of-scope topics are missing pages; the page refused by a high threshold is a page we have but refuse, named", () => {
    for (const family of [bitcoin, chineseBitcoin, payroll, weather]) {
      expect(groupWith(report, family[0] as string)?.kind, family[0]).toBe("missing-page");
    }
    const refused = groupWith(report, webhookSignatures[0] as string);
    expect(refused).toMatchObject({ kind: "refused-page", threshold: strictThreshold, refusedLookups: 30 });
    expect(refused?.bestScore).toBeGreaterThanOrEqual(strictThreshold / 2);
    expect(refused?.closest.map((page) => page.source)).toContain("integrations/webhooks.md");
    // The page behind the refused lookups' best score comes first, with that score (each attempt's topSource).
    expect(refused?.closest[0]).toMatchObject({ source: "integrations/webhooks.md", bestScore: refused?.bestRefusedScore });
    expect(refused?.bestRefusedScore).toBeGreaterThanOrEqual(strictThreshold / 2);
  });

  it("issue 37 item 5: the same records give the same groups in the same order", async () => {
    const again = await runLookupKnowledge(cwd, "--data", "data", "gaps", "--json");
    const second = JSON.parse(again.stdout) as KnowledgeGapReport;
    expect(second.groups.map((group) => [group.id, group.kind, group.lookups, group.examples])).toEqual(
      report.groups.map((group) => [group.id, group.kind, group.lookups, group.examples]),
    );
  }, 60_000);

  it("issue 37 item 1: the text output shows the groups, and no control or format character from a query reaches the terminal", async () => {
    const text = await runLookupKnowledge(cwd, "--data", "data", "gaps");
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/a missing page: \d+ lookups/);
    expect(text.stdout).toMatch(/a page we have but refuse: 30 lookups/);
    expect(text.stdout).toContain('"Can I pay with bitcoin?"');
    expect(text.stdout).toMatch(/closest +integrations\/webhooks\.md[^\n]*\(score 0\.\d+\)/);
    expect(text.stdout).not.toMatch(/[\u001b\u009b\u202e]/);
    const json = await runLookupKnowledge(cwd, "--data", "data", "gaps", "--json");
    expect(json.stdout).not.toMatch(/[\u001b\u009b\u202e]/);
  }, 60_000);

  it("issue 37 item 2: --export writes the example queries as a question file eval and calibrate read; calibrate runs once relevant is filled in", async () => {
    const file = join(cwd, "questions.jsonl");
    const exported = await runLookupKnowledge(cwd, "--data", "data", "gaps", "--export", file);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toMatch(/Wrote \d+ questions from \d+ groups to /);
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.length).toBe(report.groups.reduce((sum, group) => sum + group.examples.length, 0));
    for (const line of lines) {
      expect(Object.keys(line).sort()).toEqual(["closest", "gap", "id", "kind", "query", "relevant"]);
      expect(line["relevant"]).toEqual([]);
      expect(report.groups.find((group) => group.id === line["gap"])?.kind).toBe(line["kind"]);
    }
    expect(parseQuestionFile(readFileSync(file, "utf8"), "questions.jsonl")).toHaveLength(lines.length);
    const filled = lines.map((line) =>
      webhookSignatures.includes(line["query"] as string) ? { ...line, relevant: ["integrations/webhooks.md"] } : line,
    );
    writeFileSync(file, `${filled.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const calibrated = await runLookupKnowledge(cwd, "--data", "data", "calibrate", "--questions", file);
    expect(calibrated.code, calibrated.stderr).toBe(0);
    expect(calibrated.stdout).toMatch(/calibrat/i);
  }, 120_000);

  it("issue 37 item 1 (review): a --since in the future and an --export file that cannot be written or already exists get errors naming them, the existing file untouched", async () => {
    const future = await runLookupKnowledge(cwd, "--data", "data", "gaps", "--since", "2999-01-01");
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(/Invalid --since value "2999-01-01": 2999-01-01T00:00:00\.000Z is in the future/);
    const missing = join(cwd, "no-such-folder", "questions.jsonl");
    const exported = await runLookupKnowledge(cwd, "--data", "data", "gaps", "--export", missing);
    expect(exported.code).toBe(2);
    expect(exported.stderr).toContain(`Cannot write the --export file ${missing}: its folder does not exist.`);
    const existing = join(cwd, "filled-in.jsonl");
    writeFileSync(existing, '{"id": "kept", "query": "filled in by the owner", "relevant": ["a.md"]}\n');
    const over = await runLookupKnowledge(cwd, "--data", "data", "gaps", "--export", existing);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain(`Cannot write the --export file ${existing}: it exists`);
    expect(readFileSync(existing, "utf8")).toBe('{"id": "kept", "query": "filled in by the owner", "relevant": ["a.md"]}\n');
  }, 60_000);

  it("issue 37 item 3: under traces.store-query hash, no query text is shown anywhere (text, --json) and --export is refused", async () => {
    // Words of the queries that no document path or title holds (those are shown: they are the knowledge base's).
    const words = ["bitcoin", "比特币", "payroll", "weather", "paris", "berlin", "payout", "signature"];
    const text = await runLookupKnowledge(cwd, "--config", "hashed.json", "--data", "hashed-data", "gaps");
    const json = await runLookupKnowledge(cwd, "--config", "hashed.json", "--data", "hashed-data", "gaps", "--json");
    expect(text.code, text.stderr).toBe(0);
    expect(json.code, json.stderr).toBe(0);
    const hashed = JSON.parse(json.stdout) as KnowledgeGapReport;
    expect(hashed.queryText).toBe("hashed");
    expect(hashed.groups.length).toBeGreaterThan(0);
    expect(hashed.groups.every((group) => group.examples.length === 0)).toBe(true);
    expect(text.stdout).toMatch(/no query text is shown, and the groups were built from the stored L0 hints and sources only/);
    for (const output of [text.stdout, text.stderr, json.stdout, json.stderr]) {
      for (const word of words) expect(output.toLowerCase()).not.toContain(word.toLowerCase());
    }
    const exported = await runLookupKnowledge(
      cwd,
      "--config",
      "hashed.json",
      "--data",
      "hashed-data",
      "gaps",
      "--export",
      join(cwd, "hashed.jsonl"),
    );
    expect(exported.code).not.toBe(0);
    expect(exported.stderr).toMatch(/--export writes the groups' example queries, and traces.store-query is hash/);
    expect(() => readFileSync(join(cwd, "hashed.jsonl"))).toThrow();
  }, 120_000);
});
