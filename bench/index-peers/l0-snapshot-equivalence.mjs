// Issue 36 item 5: the L0 index a lookup opens from a data folder's snapshot (l0-index.bin)
// against a fresh createL0Index over the ingest manifest's entries, same options: queries made
// of every 997th entry's title and keywords mixed with other titles, English and Chinese, and
// the index within one domain's scope. Prints how many hints were deep-equal.
//
//   node bench/index-peers/l0-snapshot-equivalence.mjs <data folder>
import { resolve } from "node:path";
import { codeRoot } from "./corpus.mjs";

const root = resolve(process.env.BENCH_CODE_ROOT ?? codeRoot);
const { openLocalSearchPort } = await import(resolve(root, "packages/search-port/dist/local/index.js"));
const { createOfflineEmbeddings } = await import(resolve(root, "packages/embeddings/dist/index.js"));
const { l0SnapshotKey } = await import(resolve(root, "apps/agent-tool/dist/l0-snapshot/l0-snapshot-key.js"));
const { readL0Snapshot } = await import(resolve(root, "apps/agent-tool/dist/l0-snapshot/read-l0-snapshot.js"));
const { restoreL0Index, createL0Index } = await import(resolve(root, "packages/l0-hints/dist/index.js"));
const { l0IndexOptions } = await import(resolve(root, "apps/agent-tool/dist/common-term-test.js"));
const { readIngestManifest } = await import(resolve(root, "packages/ingest/dist/manifest.js"));
const { isDeepStrictEqual } = await import("node:util");
const dir = process.argv[2];
if (!dir) throw new Error("usage: node bench/index-peers/l0-snapshot-equivalence.mjs <data folder>");
const port = await openLocalSearchPort({ directory: resolve(dir, "index"), embeddings: createOfflineEmbeddings(), mode: "read" });
const read = await readL0Snapshot(dir, await l0SnapshotKey(dir, port.stats().chunks));
if (!("body" in read)) throw new Error(`the snapshot is not used: ${read.reason}`);
const restored = restoreL0Index(read.body, l0IndexOptions(port));
const entries = Object.values((await readIngestManifest(dir)).documents).map((d) => d.entry);
const fresh = createL0Index(entries, l0IndexOptions(port));
let same = 0,
  matched = 0,
  n = 0;
for (let i = 0; i < entries.length; i += 997) {
  for (const q of [
    entries[i].title,
    `${entries[i].keywords.join(" ")} in ${entries[(i * 7) % entries.length].title}`,
    "microRNA expression in cancer 细胞",
    "How does DNA methylation affect gene expression?",
  ]) {
    n += 1;
    const a = restored.match(q),
      b = fresh.match(q);
    if (isDeepStrictEqual(a, b)) same += 1;
    else console.log("DIFF", q);
    if (b.entries.length) matched += 1;
  }
}
const domain = entries.find((entry) => entry.domain !== undefined)?.domain;
const scope = { filter: { category: domain }, admits: (e) => e.domain === domain };
const rs = restored.within(scope),
  fs = fresh.within(scope);
let scopedSame = 0;
for (const e of entries.slice(0, 4000).filter((_, i) => i % 40 === 0))
  if (isDeepStrictEqual(rs.match(e.title), fs.match(e.title))) scopedSame += 1;
console.log({ queries: n, same, matched, scopedSize: rs.size, freshScopedSize: fs.size, scopedSame });
await port.close();
