import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { explainLookup, openKnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultDataDirectory } from "./cli-config.js";
import { formatExplanation } from "./explain-command.js";
import { runLookupKnowledge } from "./test/run-lookup-knowledge.js";

const question = "Who can refund a paid invoice?";

describe("lookup-knowledge explain", () => {
  let cwd: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-explain-"));
    await mkdir(join(cwd, "kb", "billing"), { recursive: true });
    await mkdir(join(cwd, "kb", "support"), { recursive: true });
    await writeFile(
      join(cwd, "kb", "billing", "refunds.md"),
      "---\ncategory: billing\n---\n# Refunds\n\nOwners can refund a paid invoice for 180 days.\n",
    );
    await writeFile(
      join(cwd, "kb", "support", "hours.md"),
      "---\ncategory: support\n---\n# Support hours\n\nThe support desk answers on weekdays from nine to five.\n",
    );
    const ingested = await runLookupKnowledge(cwd, "ingest", "--no-progress", "kb");
    expect(ingested.code).toBe(0);
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("issue 13, issue 37 item 1: prints one line per attempt, with the page behind its top score, and says the expected document was included", async () => {
    const { code, stdout } = await runLookupKnowledge(cwd, "explain", question, "--expect", "billing/refunds.md");
    expect(code).toBe(0);
    const attemptLines = stdout.split("\n").filter((line) => line.startsWith("attempt "));
    expect(attemptLines.length).toBeGreaterThan(0);
    expect(attemptLines.at(-1)).toMatch(/^attempt \d \(usable, used; .*; best page billing\/refunds\.md\): included: /);
    expect(stdout).toMatch(/Reached the model on attempt/);
  });

  it("issue 13: --json prints the whole explanation, and --filter names the failing clause", async () => {
    const { code, stdout } = await runLookupKnowledge(
      cwd,
      "explain",
      question,
      "--expect",
      "billing/refunds",
      "--json",
      "--filter",
      "category=support",
    );
    expect(code).toBe(0);
    const explanation = JSON.parse(stdout) as {
      expected: { docId: string };
      attempts: Array<{ outcome: { kind: string; clause?: unknown; clauseOrigin?: string } }>;
      result: { found: boolean };
    };
    expect(explanation.expected.docId).toBe("billing/refunds");
    expect(explanation.attempts[0]?.outcome).toMatchObject({
      kind: "excluded_by_filter",
      clause: { category: { $eq: "support" } },
      clauseOrigin: "caller",
    });
    expect(explanation.result).toHaveProperty("found");
  });

  it("issue 13: an unknown expected document is not_in_index with exit 0, its name escaped", async () => {
    const { code, stdout } = await runLookupKnowledge(cwd, "explain", question, "--expect", "billing/chargebacks.md");
    expect(code).toBe(0);
    expect(stdout).toMatch(/: not_in_index: billing\/chargebacks is not in the index/);
    const hostile = await runLookupKnowledge(cwd, "explain", question, "--expect", "billing/\u001b[31mred.md");
    expect(hostile.code).toBe(0);
    expect(hostile.stdout).toMatch(/not_in_index/);
    expect(hostile.stdout).not.toContain("\u001b");
  });

  it("issue 13 review: a failed deeper search is printed as deeper_search_failed with its code and escaped message", async () => {
    const knowledgeBase = await openKnowledgeBase({
      dataDirectory: join(cwd, defaultDataDirectory),
      config: { "rag.retrieve-k": 1, "rag.return-n": 1 },
      calibration: false,
    });
    try {
      const real = knowledgeBase.store.port;
      const port: KnowledgeSearchPort = {
        search: (request) => (request.topK === 200 ? Promise.reject(new Error("shard \u001b[31mgone")) : real.search(request)),
      };
      const explanation = await explainLookup(
        {
          ...knowledgeBase,
          store: { port, ...(knowledgeBase.store.stateDirectory ? { stateDirectory: knowledgeBase.store.stateDirectory } : {}) },
        },
        question,
        { expected: "support/hours.md" },
      );
      const text = formatExplanation(explanation);
      expect(text).toMatch(
        /: deeper_search_failed: .*the search to 200 that would place it failed \(search_failed: shard \uFFFD\[31mgone\)/,
      );
      expect(text).not.toContain("\u001b");
      expect(text).not.toMatch(/not among the top/);
    } finally {
      await knowledgeBase.close();
    }
  });

  it("issue 13: bad options exit 2 with a sentence", async () => {
    const missing = await runLookupKnowledge(cwd, "explain", question);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^lookup-knowledge: explain needs --expect <source or document_id>/);
    const badFilter = await runLookupKnowledge(cwd, "explain", question, "--expect", "billing/refunds.md", "--filter", "category");
    expect(badFilter.code).toBe(2);
    expect(badFilter.stderr).toMatch(/--filter\[0\].*key=value/);
  });
});
