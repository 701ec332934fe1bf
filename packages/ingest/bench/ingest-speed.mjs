// Prints how fast the example base and the datasets beside the repository are parsed and
// chunked: the whole of ingestFolder with a writer that only keeps records in memory (no
// embedding), on the calling thread and on worker threads. Each run is its own process, so
// its peak RSS is its own. Numbers only, nothing asserted: run with `pnpm bench` after a
// build. Wall time on a shared machine is noisy; CPU time (user + system) is steadier.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const datasets = fileURLToPath(new URL("../../../../shared/datasets/", import.meta.url));
const knowledgeBase = fileURLToPath(new URL("../../../examples/knowledge-base/", import.meta.url));
const roots = [
  ["examples/knowledge-base", knowledgeBase],
  ["apisix-docs/docs/en", join(datasets, "apisix-docs/docs/en")],
  ["apisix-docs/docs", join(datasets, "apisix-docs/docs")],
  ["tidb-docs-cn", join(datasets, "tidb-docs-cn")],
];

const memoryWriter = () => {
  const records = new Map();
  return {
    records,
    async upsert(batch) {
      for (const record of batch) records.set(record.id, record);
    },
    async deleteDocuments(docIds) {
      const doomed = new Set(docIds);
      let count = 0;
      for (const [id, record] of records) if (doomed.has(record.metadata.docId) && records.delete(id)) count += 1;
      return count;
    },
  };
};

/** The bytes of the .md and .mdx files under `folder` (what is parsed). */
async function markdownBytes(folder) {
  let bytes = 0;
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") bytes += await markdownBytes(path);
    else if (entry.isFile() && /\.mdx?$/.test(entry.name)) bytes += (await stat(path)).size;
  }
  return bytes;
}

/** One run, in this process: `node ingest-speed.mjs <name> <root> <workers>`. */
async function runOne(name, root, workersArgument) {
  const { ingestFolder } = await import("../dist/index.js");
  const parseWorkers = workersArgument === "default" ? undefined : Number(workersArgument);
  const bytes = await markdownBytes(root);
  const dataDirectory = await mkdtemp(join(tmpdir(), "ingest-bench-"));
  try {
    const cpuBefore = process.cpuUsage();
    const report = await ingestFolder({ root, dataDirectory, writer: memoryWriter(), parseWorkers });
    const cpu = process.cpuUsage(cpuBefore);
    const megabytesPerSecond = bytes / 1e6 / (report.durationMs / 1000);
    console.log(
      `${name.padEnd(24)} workers=${workersArgument.padEnd(8)} files=${String(report.files).padStart(5)} ` +
        `${(bytes / 1e6).toFixed(2).padStart(6)} MB chunks=${String(report.chunksWritten).padStart(6)} ` +
        `${String(Math.round(report.durationMs)).padStart(6)} ms ${megabytesPerSecond.toFixed(2).padStart(6)} MB/s ` +
        `cpu(process)=${String(Math.round((cpu.user + cpu.system) / 1000)).padStart(6)} ms ` +
        `peak RSS=${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
    );
  } finally {
    await rm(dataDirectory, { recursive: true, force: true });
  }
}

const [name, root, workers] = process.argv.slice(2);
if (name !== undefined && root !== undefined && workers !== undefined) {
  await runOne(name, root, workers);
} else {
  for (const [rootName, rootPath] of roots) {
    if (!existsSync(rootPath)) {
      console.log(`${rootName.padEnd(24)} skipped: not found at ${rootPath}`);
      continue;
    }
    for (const workersArgument of ["1", "default"]) {
      execFileSync(process.execPath, [fileURLToPath(import.meta.url), rootName, rootPath, workersArgument], { stdio: "inherit" });
    }
  }
}
