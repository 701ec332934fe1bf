// Prints how fast the datasets beside the repository are parsed and chunked: the whole of
// ingestFolder with a writer that only keeps records in memory (no embedding), on the
// calling thread and on worker threads. Numbers only, nothing asserted: run with
// `pnpm bench` after a build.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ingestFolder } from "../dist/index.js";

const datasets = fileURLToPath(new URL("../../../../shared/datasets/", import.meta.url));
const roots = ["apisix-docs/docs", "tidb-docs-cn"];

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

for (const root of roots) {
  for (const parseWorkers of [1, undefined]) {
    const dataDirectory = await mkdtemp(join(tmpdir(), "ingest-bench-"));
    try {
      const writer = memoryWriter();
      const report = await ingestFolder({ root: join(datasets, root), dataDirectory, writer, parseWorkers });
      const perSecond = Math.round((report.chunksWritten / report.durationMs) * 1000);
      console.log(
        `${root.padEnd(18)} workers=${String(parseWorkers ?? "default").padEnd(8)} files=${report.files} failed=${report.failed.length} ` +
          `chunks=${report.chunksWritten} ${Math.round(report.durationMs)} ms  ${perSecond} chunks/s`,
      );
    } finally {
      await rm(dataDirectory, { recursive: true, force: true });
    }
  }
}
