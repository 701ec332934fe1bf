// Compares the CJK segmentations of the lexical view (`lexicalTerms` of @lookup-knowledge/text) on a Chinese self-retrieval
// check built from the TiDB Chinese documentation (../../../../shared/datasets/tidb-docs-cn):
// every page with a `title` and a `summary` in its front matter is one record (its body,
// without the front matter and without the first `# ` heading, which repeats the title);
// its title, and separately its summary, is a query whose only relevant record is that
// page. Prints MRR@10, success@1 and success@10 for each segmentation and each query kind,
// and the indexing time. For calibration it also asks out-of-scope questions: the
// `description` of every Chinese APISIX page (another product's documentation, so sharing
// generic words such as 配置 with TiDB), and prints how well the top calibrated score
// separates the summaries (in scope) from them: the AUC (chance that an in-scope query's
// top score beats an out-of-scope one's) and the score quantiles.
// Run after `tsc -b`: `node bench/cjk-tokenisation.mjs`.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { emptySnapshot } from "../dist/local/snapshot/index-snapshot.js";
import { mergeSnapshot } from "../dist/local/snapshot/merge-snapshot.js";
import { PendingChanges } from "../dist/local/snapshot/pending-changes.js";
import { searchSnapshot } from "../dist/local/reader/search-snapshot.js";
import { lexicalTerms } from "@lookup-knowledge/text";

const tokenize = (text, mode) => lexicalTerms(text, { cjk: mode });

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../../../../shared/datasets/tidb-docs-cn");

function markdownFiles(directory) {
  const found = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) found.push(...markdownFiles(path));
    else if (name.endsWith(".md")) found.push(path);
  }
  return found;
}

function frontMatterField(block, field) {
  const match = block.match(new RegExp(`^${field}:\\s*(.+)$`, "m"));
  if (match === null) return undefined;
  return (
    match[1]
      .trim()
      .replace(/^(['"])(.*)\1$/, "$2")
      .trim() || undefined
  );
}

const pages = [];
for (const path of markdownFiles(root)) {
  const text = readFileSync(path, "utf8");
  const match = text.match(/^---\n([\s\S]*?)\n---\n([\s\S]*)$/);
  if (match === null) continue;
  const title = frontMatterField(match[1], "title");
  const summary = frontMatterField(match[1], "summary");
  if (title === undefined || summary === undefined) continue;
  const body = match[2].replace(/^\s*# .*\n/, "");
  pages.push({ id: path.slice(root.length + 1), title, summary, body });
}

const apisixRoot = join(here, "../../../../shared/datasets/apisix-docs/docs/zh/latest");
const outOfScope = [];
for (const path of markdownFiles(apisixRoot)) {
  const match = readFileSync(path, "utf8").match(/^---\n([\s\S]*?)\n---\n/);
  const description = match === null ? undefined : frontMatterField(match[1], "description");
  if (description !== undefined && /\p{Script=Han}/u.test(description)) outOfScope.push(description);
}

function build(mode) {
  const pending = new PendingChanges(0);
  for (const page of pages) {
    const counted = pending.countTerms(tokenize(page.body, mode));
    let length = 0;
    for (const frequency of counted.frequencies) length += frequency;
    pending.added.set(page.id, {
      id: page.id,
      docId: page.id,
      content: "",
      metadataText: "{}",
      terms: counted.terms,
      frequencies: counted.frequencies,
      length,
      inverseNorm: 0,
    });
  }
  return mergeSnapshot(emptySnapshot(), pending, 0);
}

function topScores(snapshot, mode, queries) {
  return queries.map(
    (query) => searchSnapshot(snapshot, { terms: tokenize(query, mode), denseWeight: 0, topK: 1, minScore: 0 }, 0).slots[0]?.score ?? 0,
  );
}

function auc(positives, negatives) {
  let wins = 0;
  for (const positive of positives) for (const negative of negatives) wins += positive > negative ? 1 : positive === negative ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

function quantiles(values) {
  const sorted = [...values].sort((left, right) => left - right);
  return [0.1, 0.5, 0.9].map((p) => sorted[Math.floor(p * (sorted.length - 1))].toFixed(2)).join("/");
}

function evaluate(snapshot, mode, field) {
  let reciprocal = 0;
  let first = 0;
  let top10 = 0;
  for (const [slot, page] of pages.entries()) {
    const hits = searchSnapshot(snapshot, { terms: tokenize(page[field], mode), denseWeight: 0, topK: 10, minScore: 0 }, 0).slots;
    const rank = hits.findIndex((hit) => hit.slot === slot);
    if (rank >= 0) {
      reciprocal += 1 / (rank + 1);
      top10 += 1;
      if (rank === 0) first += 1;
    }
  }
  const n = pages.length;
  return { mrr10: reciprocal / n, success1: first / n, success10: top10 / n };
}

console.log(
  `tidb-docs-cn self-retrieval: ${pages.length} pages with title and summary; ${outOfScope.length} out-of-scope APISIX descriptions`,
);
console.log("| segmentation | query | MRR@10 | success@1 | success@10 | index ms | terms |");
console.log("|---|---|---|---|---|---|---|");
const calibration = [];
for (const mode of ["bigrams", "words", "words+bigrams"]) {
  const started = performance.now();
  const snapshot = build(mode);
  const indexMs = performance.now() - started;
  for (const field of ["title", "summary"]) {
    const result = evaluate(snapshot, mode, field);
    console.log(
      `| ${mode} | ${field} | ${result.mrr10.toFixed(3)} | ${result.success1.toFixed(3)} | ${result.success10.toFixed(3)} | ${indexMs.toFixed(0)} | ${snapshot.lexicon.termCount} |`,
    );
  }
  const inScope = topScores(
    snapshot,
    mode,
    pages.map((page) => page.summary),
  );
  const outside = topScores(snapshot, mode, outOfScope);
  calibration.push(`| ${mode} | ${auc(inScope, outside).toFixed(3)} | ${quantiles(inScope)} | ${quantiles(outside)} |`);
}
console.log("\n| segmentation | AUC in vs out of scope | in-scope top score p10/p50/p90 | out-of-scope p10/p50/p90 |");
console.log("|---|---|---|---|");
for (const line of calibration) console.log(line);
