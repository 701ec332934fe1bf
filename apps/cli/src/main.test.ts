import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type LookupResult, parseFilterPairs } from "@lookup-knowledge/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleKnowledgeBase as knowledgeBase, runLookupKnowledge as lookupKnowledge } from "./test/run-lookup-knowledge.js";
import { builtCli } from "./test/built-cli.js";

// The real command, built (turbo builds the package before its tests), in a fresh folder.
const cli = builtCli;
const run = promisify(execFile);

describe("the lookup-knowledge CLI", () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-"));
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("says clearly that there is nothing to query before the first ingest", async () => {
    const { code, stderr } = await lookupKnowledge(cwd, "query", "refund");
    expect(code).toBe(2);
    expect(stderr).toMatch(/lookup-knowledge: .*\.lookup-knowledge/);
    expect(stderr).toMatch(/Run `lookup-knowledge ingest <folder>` first/);
  });

  it("ingests a folder into .lookup-knowledge/ and prints a summary; a second run skips everything", async () => {
    const first = await lookupKnowledge(cwd, "ingest", knowledgeBase);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/files +\d+ scanned: \d+ added, 0 changed, 0 unchanged, 0 removed, 0 with no content, 0 skipped/);
    expect(first.stdout).toMatch(/chunks\/s/);
    const second = await lookupKnowledge(cwd, "ingest", knowledgeBase);
    expect(second.stdout).toMatch(/0 added, 0 changed, \d+ unchanged/);
    expect(second.stdout).toMatch(/chunks +0 written/);
  });

  it("answers a query readably: blocks with source, breadcrumb, score, reasons, and the relevance", async () => {
    const { code, stdout } = await lookupKnowledge(cwd, "query", "Who can issue a refund for a paid invoice?");
    expect(code).toBe(0);
    expect(stdout).toMatch(/found +true \(evidence\), layer L0\+L1, relevance (high|medium)/);
    expect(stdout).toMatch(
      /#1 billing\/refunds#chunk-\d+ +\(billing\/refunds\.md, rank score \d\.\d{3}, search score [01]\.\d{3}, L0\+L1\)/,
    );
    expect(stdout).toMatch(/Refunds > /);
    expect(stdout).toMatch(/why: semantic match/);
  });

  it("issue 35: prints the rank score each block is ordered by, non-increasing down the list, where the rerank reorders the search scores", async () => {
    const question = "Who can issue a refund for a paid invoice?";
    const json = await lookupKnowledge(cwd, "query", question, "--json");
    const blocks = (JSON.parse(json.stdout) as LookupResult).evidenceBlocks;
    // The precondition: the rerank's boosts put a block with a lower search score above a higher one.
    const searchScores = blocks.map((block) => block.score ?? 0);
    expect(searchScores.some((score, index) => index > 0 && score > (searchScores[index - 1] as number))).toBe(true);

    const { code, stdout } = await lookupKnowledge(cwd, "query", question);
    expect(code).toBe(0);
    const printed = [...stdout.matchAll(/^ {2}#\d+ \S+ +\(.*, rank score (\d+\.\d{3}), search score (\d+\.\d{3}), /gm)].map((match) => ({
      rank: Number(match[1]),
      search: Number(match[2]),
    }));
    expect(printed).toHaveLength(blocks.length);
    expect(printed.map((block) => block.rank)).toEqual(blocks.map((block) => Number(block.rankScore.toFixed(3))));
    expect(printed.map((block) => block.search)).toEqual(blocks.map((block) => Number((block.score ?? 0).toFixed(3))));
    for (let index = 1; index < printed.length; index++) {
      expect(printed[index]?.rank).toBeLessThanOrEqual(printed[index - 1]?.rank as number);
    }
  });

  it("prints the fallback reason when the L0 filter found nothing usable", async () => {
    const { stdout } = await lookupKnowledge(
      cwd,
      "query",
      "What VAT code mapping does the nightly sync need before it can post documents?",
    );
    expect(stdout).toMatch(/fallback +filtered_vector_(no_evidence|low_quality)/);
  });

  it("R12: --json prints the LookupResult, and --filter adds a caller filter kept on every attempt, which scopes the hints too", async () => {
    const { stdout } = await lookupKnowledge(
      cwd,
      "query",
      "--json",
      "--filter",
      "category=security",
      "Who can approve a partial refund on a paid invoice?",
    );
    const result = JSON.parse(stdout) as LookupResult;
    // The hints come from the security pages only (issue 33): the billing pages the question names
    // give no hint and no L0 filter, so the one attempt carries the caller's filter alone.
    expect(result.retrievalTrace.hints.entries.every((entry) => entry.source.startsWith("security/"))).toBe(true);
    expect(result.retrievalTrace.fallbackReason).toBeUndefined();
    for (const attempt of result.retrievalTrace.attempts) {
      expect(JSON.stringify(attempt.filter)).toContain('"category":{"$eq":"security"}');
    }
    for (const block of result.evidenceBlocks) expect(block.source.startsWith("security/")).toBe(true);
  });

  it("issue 34: --filter reads key=value with core's parseFilterPairs, the inspector page's parser: year=2024 is the number or the string", async () => {
    const { stdout } = await lookupKnowledge(
      cwd,
      "query",
      "--json",
      "--filter",
      "year=2024",
      "--filter",
      " category = security ",
      "Who can approve a partial refund on a paid invoice?",
    );
    const sent = { $and: [{ year: { $in: [2024, "2024"] } }, { category: { $eq: "security" } }] };
    // The filter the page's lines "year=2024" and "category = security" make (apps/inspector/web/src/api.test.ts).
    expect(parseFilterPairs(["year=2024", " category = security "])).toEqual(sent);
    const result = JSON.parse(stdout) as LookupResult;
    expect(result.retrievalTrace.attempts.length).toBeGreaterThan(0);
    for (const attempt of result.retrievalTrace.attempts) expect(JSON.stringify(attempt.filter)).toContain(JSON.stringify(sent.$and[0]));
  });

  it("R11: an out-of-scope question prints found=false and the message", async () => {
    const { stdout } = await lookupKnowledge(cwd, "query", "What is the boiling point of ethanol?");
    expect(stdout).toMatch(/found +false \(no_evidence\)/);
    expect(stdout).toMatch(/No knowledge evidence was found/);
  });

  it("stats shows documents, chunks and the embedder", async () => {
    const { stdout } = await lookupKnowledge(cwd, "stats");
    expect(stdout).toMatch(/documents +\d+/);
    expect(stdout).toMatch(/embedder +lookup-knowledge\/offline-hash-glove@2 \(356 dimensions\)/);
  });

  it("reads rag.* keys from lookup-knowledge.config.json and refuses a bad one by name", async () => {
    await writeFile(join(cwd, "lookup-knowledge.config.json"), JSON.stringify({ "rag.return-n": 1 }));
    const { stdout } = await lookupKnowledge(cwd, "query", "--json", "Who can issue a refund for a paid invoice?");
    expect((JSON.parse(stdout) as LookupResult).evidenceBlocks).toHaveLength(1);
    await writeFile(join(cwd, "lookup-knowledge.config.json"), JSON.stringify({ "rag.return-n": "lots" }));
    const bad = await lookupKnowledge(cwd, "query", "refund");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/rag\.return-n/);
    await rm(join(cwd, "lookup-knowledge.config.json"));
  });

  it("filters on numbers too: --filter chunkIndex=0 keeps only first chunks", async () => {
    const { stdout } = await lookupKnowledge(cwd, "query", "--json", "--filter", "chunkIndex=0", "How long do refunds take?");
    const result = JSON.parse(stdout) as LookupResult;
    // Metadata keeps chunkIndex as a number: the filter matches it, and nothing else.
    expect(result.retrievalTrace.attempts[0]?.candidateCount).toBeGreaterThan(0);
    for (const block of result.evidenceBlocks) expect(block.chunkIndex).toBe(0);
  });

  it("refuses to ingest another folder into the same data folder, and says what to do", async () => {
    const other = await mkdtemp(join(tmpdir(), "lookup-knowledge-other-"));
    await writeFile(join(other, "note.md"), "# Note\n\nA single note about nothing in particular.\n");
    const { code, stderr } = await lookupKnowledge(cwd, "ingest", other);
    expect(code).toBe(2);
    expect(stderr).toMatch(/holds the knowledge base ingested from/);
    expect(stderr).toMatch(/--replace/);
    await rm(other, { recursive: true, force: true });
  });

  it("rebuilds an index folder that was deleted instead of skipping every file", async () => {
    await rm(join(cwd, ".lookup-knowledge", "index"), { recursive: true, force: true });
    const { stdout } = await lookupKnowledge(cwd, "ingest", knowledgeBase);
    expect(stdout).not.toMatch(/chunks +0 written/);
    const query = await lookupKnowledge(cwd, "query", "Who can approve a partial refund on a paid invoice?");
    expect(query.stdout).toMatch(/found +true/);
  });

  it("R27, issue 35 item 4: query only appends to the spool; traces lists it from there without starting the database, and a command that needs the database says so and moves every lookup into it", async () => {
    const spool = join(cwd, ".lookup-knowledge", "traces", "spool");
    expect(readdirSync(spool).some((entry) => entry.endsWith(".jsonl"))).toBe(true);
    const database = join(cwd, ".lookup-knowledge", "traces", "database");
    expect(existsSync(database)).toBe(false);
    const { code, stdout, stderr } = await lookupKnowledge(cwd, "traces", "--limit", "100");
    expect(code).toBe(0);
    expect(stderr).toBe("");
    expect(existsSync(database)).toBe(false);
    const pruned = await lookupKnowledge(cwd, "traces", "prune", "--older-than", "2000-01-01");
    expect(pruned.code).toBe(0);
    expect(pruned.stderr).toMatch(
      /^lookup-knowledge: starting the trace database in .*database \(the first time creates it: about 15 s\), to move the spooled lookups into it and read them\n$/,
    );
    expect(existsSync(database)).toBe(true);
    expect(stdout.split("\n")[0]).toMatch(/^time \(UTC\) +query +found +layer +fallback reason +evidence +duration +id$/);
    expect(stdout).toMatch(/Who can issue a refund for a paid invoice\? +yes +L0\+L1 /);
    expect(stdout).toMatch(/What is the boiling point of ethanol\? +no +(none|L1|L0) /);
    expect(stdout).toMatch(/filtered_vector_(no_evidence|low_quality)/);
    expect(readdirSync(spool).filter((entry) => entry.endsWith(".jsonl") && entry !== "rejected.jsonl")).toEqual([]);
  });

  it("R27: traces filters by --no-evidence, --reason, --query and --since, and prints --json", async () => {
    const none = JSON.parse((await lookupKnowledge(cwd, "traces", "--json", "--no-evidence")).stdout) as Array<{ found: boolean }>;
    expect(none.length).toBeGreaterThan(0);
    for (const record of none) expect(record.found).toBe(false);
    const fallback = JSON.parse(
      (await lookupKnowledge(cwd, "traces", "--json", "--reason", "filtered_vector_low_quality")).stdout,
    ) as Array<{
      fallbackReason: string;
    }>;
    for (const record of fallback) expect(record.fallbackReason).toBe("filtered_vector_low_quality");
    const matched = JSON.parse((await lookupKnowledge(cwd, "traces", "--json", "--query", "BOILING point")).stdout) as Array<{
      query: string;
    }>;
    expect(matched.map((record) => record.query)).toContain("What is the boiling point of ethanol?");
    expect(JSON.parse((await lookupKnowledge(cwd, "traces", "--json", "--since", "2000-01-01")).stdout)).not.toEqual([]);
    const future = await lookupKnowledge(cwd, "traces", "--since", "2999-01-01");
    expect(future.stdout).toMatch(/No recorded lookups match/);
  });

  it("R27, issue 37 item 1: trace <id> shows one lookup whole: hints, attempts with filter, top score and the page behind it, rerank, evidence, context pack", async () => {
    const [record] = JSON.parse(
      (await lookupKnowledge(cwd, "traces", "--json", "--query", "paid invoice", "--limit", "1")).stdout,
    ) as Array<{ id: string }>;
    const { code, stdout } = await lookupKnowledge(cwd, "trace", record?.id ?? "");
    expect(code).toBe(0);
    expect(stdout).toContain(`id           ${record?.id}`);
    expect(stdout).toMatch(/L0 hints\n {2}keywords +.*\n {2}domains +billing/);
    expect(stdout).toMatch(/#1 \w+: filter \{"category":\{"\$eq":"billing"\}\} \(L0 part/);
    expect(stdout).toMatch(/top score [01]\.\d{3}/);
    expect(stdout).toMatch(/\n {5}best page billing\/refunds\.md/);
    expect(stdout).toMatch(
      /answerability [01]\.\d{3} \(answerability-logistic@\d+\): cjk 0\.00, coverage [01]\.\d{2}, .*lexical [01]\.\d{2}, /,
    );
    expect(stdout).toMatch(/Rerank\n {2}1\. billing\/refunds#chunk-\d+ \(billing\/refunds\.md\) base [01]\.\d{3} -> /);
    expect(stdout).toMatch(/Evidence\n {2}billing\/refunds#chunk-\d+/);
    expect(stdout).toMatch(/Context pack\n {2}included +billing\/refunds\.md/);
  });

  it("names a bad --since, --older-than or DATABASE_URL and an unknown trace id, and exits 2", async () => {
    const since = await lookupKnowledge(cwd, "traces", "--since", "yesterday");
    expect(since.code).toBe(2);
    expect(since.stderr).toMatch(/Invalid --since value "yesterday": expected an age like 30m, 1h, 7d/);
    const olderThan = await lookupKnowledge(cwd, "traces", "prune", "--older-than", "30 days");
    expect(olderThan.code).toBe(2);
    expect(olderThan.stderr).toMatch(/Invalid --older-than value "30 days"/);
    const unknown = await lookupKnowledge(cwd, "trace", "no-such-id");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/No recorded lookup has the id "no-such-id"/);
    expect(unknown.stderr).toMatch(/lookup-knowledge traces/);
    const url = await run(process.execPath, [cli, "traces"], {
      cwd,
      env: { ...process.env, DATABASE_URL: "mysql://root:hunter2@db/x" },
    }).catch((error: { stderr: string; code: number }) => error);
    expect((url as { code: number }).code).toBe(2);
    expect((url as { stderr: string }).stderr).toMatch(/DATABASE_URL="mysql:\/\/root:\*\*\*@db\/x": the scheme mysql: is not supported/);
  });

  it("traces prune --older-than deletes old lookups only", async () => {
    const old = await lookupKnowledge(cwd, "traces", "prune", "--older-than", "30d");
    expect(old.stdout).toMatch(/^Deleted 0 recorded lookups from before /);
    const everything = await lookupKnowledge(cwd, "traces", "prune", "--older-than", "2999-01-01");
    expect(everything.stdout).toMatch(/^Deleted [1-9]\d* recorded lookups/);
    expect((await lookupKnowledge(cwd, "traces")).stdout).toMatch(/No recorded lookups match/);
  });

  it("R28: with traces.store-query hash, the query text is kept nowhere, and its exact text finds the record", async () => {
    await writeFile(join(cwd, "lookup-knowledge.config.json"), JSON.stringify({ "traces.store-query": "hash" }));
    try {
      await lookupKnowledge(cwd, "query", "How long do refunds take?");
      const spool = join(cwd, ".lookup-knowledge", "traces", "spool");
      for (const entry of readdirSync(spool).filter((name) => name.endsWith(".jsonl"))) {
        expect(readFileSync(join(spool, entry), "utf8")).not.toContain("How long do refunds take");
      }
      const [record] = JSON.parse(
        (await lookupKnowledge(cwd, "traces", "--json", "--query", "How long do refunds take?")).stdout,
      ) as Array<{
        query: string;
      }>;
      expect(record?.query).toMatch(/^hmac-sha256:[0-9a-f]{64}$/);
      expect((await lookupKnowledge(cwd, "query", "refund")).code).toBe(0);
      await writeFile(join(cwd, "lookup-knowledge.config.json"), JSON.stringify({ "traces.store-query": "md5" }));
      const refused = await lookupKnowledge(cwd, "query", "refund");
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/traces\.store-query/);
    } finally {
      await rm(join(cwd, "lookup-knowledge.config.json"));
    }
  });

  it("refuses a malformed --filter with a clear message", async () => {
    const { code, stderr } = await lookupKnowledge(cwd, "query", "--filter", "category", "refund");
    expect(code).toBe(2);
    expect(stderr).toMatch(/expected key=value/);
  });

  it("R29: a query whose trace cannot be spooled says the record is lost, not that it will be retried, and still answers", async () => {
    const traces = join(cwd, ".lookup-knowledge", "traces");
    await rename(traces, `${traces}.kept`);
    await writeFile(traces, ""); // a file where the trace folder should be
    try {
      const { code, stdout, stderr } = await lookupKnowledge(cwd, "query", "Who can issue a refund for a paid invoice?");
      expect(code).toBe(0);
      expect(stdout).toMatch(/found +true/);
      expect(stderr).toMatch(/Could not record tool invocation .*ENOTDIR/);
      expect(stderr).toMatch(/^1 trace record could not be written and is lost/m);
    } finally {
      await rm(traces);
      await rename(`${traces}.kept`, traces);
    }
  });
});
