// Writes the L0 snapshot (`l0-index.bin`) of a data folder whose ingest manifest was not
// written by the CLI (cold-start.mjs's BENCH_COLD_DATA folder is the bench's index with a
// manifest put beside it), as an ingest would at its end (issue 36 item 5):
//
//   node bench/index-peers/write-l0-snapshot.mjs <data folder>
import { resolve } from "node:path";
import { codeRoot } from "./corpus.mjs";

const folder = process.argv[2];
if (!folder) throw new Error("usage: node bench/index-peers/write-l0-snapshot.mjs <data folder>");
const root = process.env.BENCH_CODE_ROOT ?? codeRoot;
const { openLocalSearchPort } = await import(resolve(root, "packages/search-port/dist/local/index.js"));
const { createOfflineEmbeddings } = await import(resolve(root, "packages/embeddings/dist/index.js"));
const { writeL0Snapshot } = await import(resolve(root, "apps/agent-tool/dist/l0-snapshot/write-l0-snapshot.js"));
const port = await openLocalSearchPort({ directory: resolve(folder, "index"), embeddings: createOfflineEmbeddings(), mode: "read" });
try {
  const started = performance.now();
  const outcome = await writeL0Snapshot(resolve(folder), port);
  console.log(`${outcome} in ${Math.round(performance.now() - started)} ms`);
} finally {
  await port.close();
}
