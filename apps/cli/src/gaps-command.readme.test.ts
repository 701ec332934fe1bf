import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadCliConfig } from "./cli-config.js";
import { runGapsCommand } from "./gaps-command.js";
import { runIngestCommand } from "./ingest-command.js";
import { exampleKnowledgeBase } from "./test/run-lookup-knowledge.js";
import { withLookupKnowledgeBase } from "./with-lookup-knowledge-base.js";

// Keeps the README's `gaps` sample honest (issue 37): the same lookups over the example base
// give the same output, times and ids apart.

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
const asked = [
  "Can I pay with bitcoin?",
  "Can I pay with bitcoin?",
  "Do you accept bitcoin for invoices?",
  "如何用比特币付款？",
  "比特币付款手续费是多少？",
  "How do I run payroll for my employees?",
  "Does Lumen do payroll?",
  "How do I verify webhook signatures?",
  "Who can issue a refund for a paid invoice?",
];

/** Times, lookup ids and group ids (which hash the stored queries, the same here) made placeholders. */
function normalized(text: string): string {
  return text
    .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/g, "<time>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<lookup id>")
    .trim();
}

describe("README: the Traces section's gaps sample", () => {
  const cwd = mkdtempSync(join(tmpdir(), "lk-gaps-readme-"));
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it("issue 37: the sample is what gaps prints after the README's lookups on the example base", async () => {
    const sample = /```text\n\$ lookup-knowledge gaps --since 1d\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(sample, "the README's Traces section shows a gaps sample").toBeDefined();
    const config = await loadCliConfig({ cwd, dataDirectory: join(cwd, "data") });
    await runIngestCommand(exampleKnowledgeBase, config, { progress: false });
    await withLookupKnowledgeBase(
      config,
      () => undefined,
      async (knowledgeBase) => {
        for (const query of asked) await knowledgeBase.retriever.lookup(query);
      },
    );
    // The embedded trace database, as the README's run: a DATABASE_URL in the shell would read (and fill) another store.
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const output = await runGapsCommand(config, { since: "1d", environment });
    expect(normalized(output)).toBe(normalized(sample ?? ""));
  }, 120_000);
});
