import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderEvidenceContent } from "@lookup-knowledge/agent-tool/format";
import { ingestIntoLocalIndex, openLocalKnowledgeBase } from "@lookup-knowledge/agent-tool/local";
import { evidenceShare } from "./evidence-share.js";
import { apisixSets, examplesSet } from "./knowledge-bases.js";

// `pnpm --filter @lookup-knowledge/eval run content-share` (after `pnpm build`): how much of
// what the model reads from `lookup_knowledge` is evidence text, on the example knowledge base
// (the questions of `pnpm start`, then every question of its questions.json) and on the APISIX
// docs with the eval's APISIX questions (every question, both halves: this measures the
// content's shape, not retrieval quality). Each knowledge base is ingested into a temporary
// data folder and opened as the CLI and the demo open one, with the default settings.

/** The lookups of `pnpm start` (apps/cli/src/demo/run-demo.ts, `demoQuestions`); the fourth finds nothing. */
const demoQuestions = [
  "Who can approve a partial refund on a paid invoice?",
  "What VAT code mapping does the nightly sync need before it can post documents?",
  "如何为已付款的发票申请退款？",
  "What is the boiling point of ethanol?",
];

interface Row {
  name: string;
  questions: number;
  found: number;
  blocks: number;
  contentBytes: number;
  evidenceBytes: number;
}

async function measure(name: string, dataDirectory: string, questions: readonly string[]): Promise<Row> {
  const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory });
  const row: Row = { name, questions: questions.length, found: 0, blocks: 0, contentBytes: 0, evidenceBytes: 0 };
  try {
    for (const question of questions) {
      const result = await knowledgeBase.retriever.lookup(question);
      if (!result.found) continue;
      const share = evidenceShare(renderEvidenceContent(result));
      row.found += 1;
      row.blocks += share.blocks;
      row.contentBytes += share.contentBytes;
      row.evidenceBytes += share.evidenceBytes;
    }
  } finally {
    await knowledgeBase.close();
  }
  return row;
}

function table(rows: readonly Row[]): string {
  const header = ["set", "questions", "found", "blocks", "content bytes", "evidence bytes", "other bytes per block", "evidence share"];
  const lines = rows.map((row) => [
    row.name,
    String(row.questions),
    String(row.found),
    String(row.blocks),
    String(row.contentBytes),
    String(row.evidenceBytes),
    row.blocks === 0 ? "-" : ((row.contentBytes - row.evidenceBytes) / row.blocks).toFixed(0),
    row.contentBytes === 0 ? "-" : `${((100 * row.evidenceBytes) / row.contentBytes).toFixed(1)}%`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...lines.map((line) => (line[column] ?? "").length)));
  const format = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join("  ")
      .trimEnd();
  return [format(header), format(widths.map((width) => "-".repeat(width))), ...lines.map(format)].join("\n");
}

const scratch = await mkdtemp(join(tmpdir(), "lookup-knowledge-content-share-"));
try {
  const rows: Row[] = [];
  const examples = await examplesSet();
  const examplesData = join(scratch, "examples");
  await ingestIntoLocalIndex({ root: examples.root, dataDirectory: examplesData });
  rows.push(await measure("examples (pnpm start questions)", examplesData, demoQuestions));
  const exampleQuestions = [...examples.answerable, ...examples.unanswerable].map((question) => question.question);
  rows.push(await measure("examples (questions.json)", examplesData, exampleQuestions));
  for (const set of await apisixSets()) {
    const dataDirectory = join(scratch, set.set);
    await ingestIntoLocalIndex({ root: set.root, dataDirectory });
    const questions = [...set.answerable, ...set.unanswerable].map((question) => question.question);
    rows.push(await measure(set.set, dataDirectory, questions));
  }
  console.log(
    "Share of the tool content (renderEvidenceContent) that is evidence text, in UTF-8 bytes, over the lookups that found evidence.\n",
  );
  console.log(table(rows));
} finally {
  await rm(scratch, { recursive: true, force: true });
}
