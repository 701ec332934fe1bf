// Issue 36 item 6, lead 3: what one pass over a chunk's characters shared by the embedder's
// words and the index writer's lexical terms could save. Parses a tree's Markdown into chunks
// (`parseMarkdownDocument`), then, each in a fresh process (cold, as in a CLI ingest), times over
// every chunk's text: the embedder's words (`embeddingTerms`), the writer's terms
// (`lexicalTermIds`, as the local index's writer numbers them), and a bare scan that finds the
// word boundaries and nothing else (the part the two could share). Interleaved round by round;
// prints medians (min-max) of CPU time.
//
//   node bench/ingest-peers/analysis-passes.mjs [tree]      # 5 rounds
//   BENCH_INGEST_ROUNDS=7 node bench/ingest-peers/analysis-passes.mjs <tree>
//
// Needs `pnpm build`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./median.mjs";
import { childStderr } from "./child-stderr.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "../..");
const passes = ["embeddingTerms", "lexicalTermIds", "scan"];

if (process.argv[2] === "--child") {
  const [, , , pass, chunksFile] = process.argv;
  const texts = JSON.parse(readFileSync(chunksFile, "utf8"));
  const { embeddingTerms, lexicalTermIds, TermNumbering } = await import(join(root, "packages/text/dist/index.js"));
  const numbering = new TermNumbering();
  // Word characters of ASCII: letters and digits; anything past ASCII counts as one too (the scan only finds boundaries).
  const word = Uint8Array.from({ length: 128 }, (_, code) => (/[A-Za-z0-9]/.test(String.fromCharCode(code)) ? 1 : 0));
  const cpuBefore = process.cpuUsage();
  let count = 0;
  for (const text of texts) {
    if (pass === "embeddingTerms") count += embeddingTerms(text).words.length;
    else if (pass === "lexicalTermIds") count += lexicalTermIds(text, numbering).length;
    else {
      let inWord = false;
      for (let index = 0; index < text.length; index += 1) {
        const code = text.charCodeAt(index);
        const isWord = code < 0x80 ? word[code] === 1 : true;
        if (isWord && !inWord) count += 1;
        inWord = isWord;
      }
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  console.log(JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000, count }));
  process.exit(0);
}

const tree = resolve(process.argv[2] ?? join(root, "../shared/datasets/apisix-docs/docs/en"));
const rounds = Number(process.env.BENCH_INGEST_ROUNDS ?? 5);
if (!Number.isInteger(rounds) || rounds <= 0)
  throw new Error(`BENCH_INGEST_ROUNDS must be a positive integer, got ${process.env.BENCH_INGEST_ROUNDS}`);

const { parseMarkdownDocument } = await import(join(root, "packages/ingest/dist/index.js"));
const texts = [];
const walk = (folder) => {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") walk(path);
    else if (entry.isFile() && /\.mdx?$/.test(entry.name)) {
      for (const chunk of parseMarkdownDocument(readFileSync(path, "utf8"), { source: path }).chunks) texts.push(chunk.content);
    }
  }
};
walk(tree);
const workspace = mkdtempSync(join(tmpdir(), "analysis-passes-"));
const chunksFile = join(workspace, "chunks.json");
writeFileSync(chunksFile, JSON.stringify(texts));

const results = new Map(passes.map((pass) => [pass, []]));
const loads = [];
try {
  for (let round = 0; round < rounds; round += 1) {
    for (const pass of passes.map((_, index) => passes[(index + round) % passes.length])) {
      loads.push(loadavg()[0]);
      const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", pass, chunksFile], { encoding: "utf8" });
      if (run.status !== 0) throw new Error(`${pass} failed:\n${childStderr(run.stderr)}`);
      results.get(pass).push(JSON.parse(run.stdout.trim().split("\n").pop()));
    }
    console.error(`[analysis-passes] round ${round + 1}/${rounds} done`);
  }
} finally {
  rmSync(workspace, { recursive: true, force: true });
}

const characters = texts.reduce((total, text) => total + text.length, 0);
console.log(
  `\n## One cold pass over the chunks of ${tree} (${texts.length} chunks, ${characters} characters), one-minute load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}, median of ${rounds} interleaved rounds (min-max)\n`,
);
console.log("| pass | CPU (ms) | words or terms |");
console.log("|---|---|---|");
for (const [pass, list] of results) {
  const cpu = list.map((result) => result.cpuMs);
  console.log(`| ${pass} | ${median(cpu).toFixed(0)} (${Math.min(...cpu).toFixed(0)}-${Math.max(...cpu).toFixed(0)}) | ${list[0].count} |`);
}
