import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openTraceDatabase } from "../database/open-trace-database.js";
import { traceSocketDirectory } from "../database/server/trace-socket-directory.js";
import { createDurableTraceStore } from "../durable/create-durable-trace-store.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";

// `node dist/bench/knowledge-gaps.js [records] [directory]` (issue 37 item 5): fills an
// embedded trace database with `records` lookups (default 100,000: 40% answered, 45% refused,
// 15% low relevance, over 3,000 distinct refused or weak queries on 300 topics, a month of
// days), then times `knowledgeGaps` over the whole period, three rounds, wall and CPU time.
// With `directory`, the database is left there (`<directory>/traces/database`) for timing the
// CLI's `gaps --data <directory>` on it; `... <directory> reuse` times them again without filling.

const count = Number(process.argv[2] ?? 100_000);
const kept = process.argv[3];
// In the past, so that the CLI's `gaps --since 2025-01-01` (which reads up to now) reads them all.
const start = Date.UTC(2025, 0, 1);
const month = 30 * 86_400_000;
const topics = 300;
const distinct = 3_000;
const words = ["setup", "export", "limits", "error", "pricing", "migrate", "configure", "delete", "sync", "report"];

function record(index: number): ToolInvocationRecord {
  const kind = index % 20 < 8 ? "answered" : index % 20 < 17 ? "refused" : "low";
  const variant = (index * 7919) % distinct;
  const topic = variant % topics;
  const query =
    kind === "answered"
      ? `answered question ${index % 500}`
      : `topic${topic} ${words[variant % words.length]} ${words[(variant >> 3) % words.length]} ${variant}`;
  const found = kind !== "refused";
  const evidence = found
    ? Array.from({ length: 3 }, (_, block) => ({
        evidenceKey: `guides/doc-${topic}-${block}#chunk-1`,
        source: `guides/doc-${topic}-${block}.md`,
        title: `Guide ${topic} ${block}`,
        retrievalLayer: "L1" as const,
        score: 0.6 - block * 0.1,
        hitReasons: [`semantic match ${(0.6 - block * 0.1).toFixed(2)}`],
        preview: "The gateway routes each request to an upstream after the rate limit plugin has run; a consumer token is checked first.",
      }))
    : [];
  const topScore = kind === "answered" ? 0.9 : kind === "low" ? 0.03 : (variant % 50) / 1000;
  return {
    id: `gap-bench-${index}`,
    toolName: "lookup_knowledge",
    query,
    transformedQuery: query,
    createdAt: new Date(start + Math.floor((index / count) * month)).toISOString(),
    durationMs: 18,
    found,
    evidenceStatus: found ? "evidence" : "no_evidence",
    retrievalLayer: "L1",
    fallbackReason: null,
    candidateCount: 20,
    evidenceCount: evidence.length,
    error: null,
    retrievalDetails: {
      hints: { keywords: [`topic${topic}`], domains: [], entities: [], titles: [], entries: [] },
      retrievalLayer: "L1",
      l1Enabled: true,
      attempts: [
        {
          attempt: 1,
          candidateCount: 20,
          evidenceCount: evidence.length,
          topScore,
          // The page behind the score (issue 37 item 1): what the gaps report names as closest.
          topSource: { source: `guides/doc-${topic}-0.md`, title: `Guide ${topic} 0` },
          answerability: {
            score: topScore,
            model: "answerability-logistic@9",
            signals: { lexical: 0.16, dense: 0.4, coverage: 0.27, unseen: 0.73, missingRare: 1, rarity: 0.91, margin: 1, terms: 1.39 },
          },
          outcome: found ? "usable" : "low_quality",
          rejectedHits: 0,
          durationMs: 15,
        },
      ],
      fallbackReason: null,
      referenceThreshold: 0.04,
      candidateCount: 20,
      evidenceCount: evidence.length,
      relevanceLevel: kind === "answered" ? "high" : kind === "low" ? "low" : "none",
      evidence,
      rerank: [],
    },
  };
}

/**
 * The CPU milliseconds the folder's trace server (where PGlite runs the statement) has used,
 * from /proc (Linux); undefined elsewhere. Wall time on a shared, loaded machine says little:
 * this process's CPU plus the server's is the figure that compares.
 */
function serverCpuMs(databaseDirectory: string): number | undefined {
  try {
    const pid = readFileSync(join(traceSocketDirectory(databaseDirectory), "server.pid"), "utf8").trim();
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

const analyze = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]{3,}/g) ?? [];

/** `reuse` as the third argument: time the records a run with the same `directory` left, without filling again. */
const reuse = process.argv[4] === "reuse";
const root = kept ?? mkdtempSync(join(tmpdir(), "gaps-bench-"));
const directory = join(root, "traces");

async function fill(): Promise<void> {
  const started = performance.now();
  const database = await openTraceDatabase({ directory: join(directory, "database") });
  const batch = 2_000;
  for (let first = 0; first < count; first += batch) {
    const records = Array.from({ length: Math.min(batch, count - first) }, (_, offset) => record(first + offset));
    await database.insert(records);
  }
  await database.close();
  console.log(`filled ${count} records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

try {
  if (!reuse) await fill();
  const store = createDurableTraceStore({ directory, flushIntervalMs: 0 });
  let started = performance.now();
  await store.count(); // opens (and starts) the database: timed apart from the gaps themselves
  console.log(`opened the embedded database in ${(performance.now() - started).toFixed(0)} ms`);
  const period = { since: new Date(start), until: new Date(start + month + 1), analyze };
  for (let round = 1; round <= 3; round += 1) {
    const cpu = process.cpuUsage();
    const serverBefore = serverCpuMs(join(directory, "database"));
    started = performance.now();
    const report = await store.knowledgeGaps(period);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const serverAfter = serverCpuMs(join(directory, "database"));
    const server = serverBefore === undefined || serverAfter === undefined ? "?" : (serverAfter - serverBefore).toFixed(0);
    console.log(
      `round ${round}: knowledgeGaps over ${count} records (${report.lookupsRead} refused or low, ${report.distinctQueries} distinct queries, ${report.groups.length} groups): ${wall.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU here + ${server} ms CPU in the trace server, load ${loadavg()[0]?.toFixed(2)}`,
    );
  }
  await store.close();
} finally {
  if (!kept) rmSync(root, { recursive: true, force: true });
}
