// What `metadataKeys()` (the CLI's `stats`) costs on a large local index (run after `tsc -b`):
// an index of BENCH_METADATA_CHUNKS chunks (default 1,000,000; lexical only, the metadata the
// ingest writes), then
//   - metadataKeys() of a reader of format 6 (the counts the commit kept),
//   - a commit that changes 10 documents (the counts updated by its changes),
//   - metadataKeys() of the same index rewritten as format 5 (no counts kept: every record read).
// Prints numbers, asserts nothing.
import { readFileSync, renameSync, rmSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { manifestChecksum } from "../dist/local/format/manifest-text.js";
import { openLocalSearchPort } from "../dist/local/index.js";

const chunks = Number(process.env.BENCH_METADATA_CHUNKS ?? 1_000_000);
const directory = mkdtempSync(join(tmpdir(), "metadata-keys-bench-"));
const categories = Array.from({ length: 24 }, (_, index) => `category-${index}`);
const words = Array.from({ length: 800 }, (_, index) => `keyword${index}`);

function record(index, version = 0) {
  const document = Math.floor(index / 8);
  const docId = `guide/page-${document}`;
  const chunkIndex = index % 8;
  return {
    id: `${docId}#chunk-${chunkIndex}`,
    content: `${words[index % words.length]} ${words[(index * 7) % words.length]} section ${index} v${version}`,
    metadata: {
      docId,
      chunkIndex,
      source: `${docId}.md`,
      title: `Page ${document}`,
      breadcrumb: `Page ${document} > Section ${chunkIndex}`,
      category: categories[document % categories.length],
      keywords: [words[document % words.length], words[(document * 13) % words.length]],
      contentHash: `${index.toString(16).padStart(12, "0")}${version}`,
    },
  };
}

const seconds = (started) => ((performance.now() - started) / 1000).toFixed(2);
const ms = (started) => (performance.now() - started).toFixed(1);

try {
  let started = performance.now();
  const writer = await openLocalSearchPort({ directory, mode: "write" });
  for (let start = 0; start < chunks; start += 10_000) {
    const batch = [];
    for (let index = start; index < Math.min(chunks, start + 10_000); index += 1) batch.push(record(index));
    await writer.upsert(batch);
  }
  console.log(`upsert ${chunks} chunks: ${seconds(started)} s`);
  started = performance.now();
  await writer.commit();
  console.log(`first commit (every record counted): ${seconds(started)} s`);

  started = performance.now();
  await writer.upsert(Array.from({ length: 80 }, (_, index) => record(index * 1_000, 1)));
  await writer.deleteDocuments(["guide/page-5", "guide/page-6"]);
  await writer.commit();
  console.log(`commit of 10 changed documents (counts updated by the changes): ${seconds(started)} s`);
  await writer.close();

  let reader = await openLocalSearchPort({ directory });
  started = performance.now();
  const kept = reader.metadataKeys();
  console.log(`metadataKeys(), format 6 (counts kept at commit): ${ms(started)} ms, ${kept.keys.length} keys`);
  await reader.close();

  // The same index as format 5 left it: no counts file.
  const path = join(directory, "manifest.json");
  const manifest = JSON.parse(readFileSync(path, "utf8"));
  rmSync(join(directory, manifest.files.facets.name));
  delete manifest.files.facets;
  manifest.formatVersion = 5;
  const { checksum: _, ...fields } = manifest;
  writeFileSync(`${path}.edit`, `${JSON.stringify({ ...fields, checksum: manifestChecksum(fields) }, null, 2)}\n`);
  renameSync(`${path}.edit`, path);
  reader = await openLocalSearchPort({ directory });
  started = performance.now();
  const scanned = reader.metadataKeys();
  console.log(`metadataKeys(), format 5 (every record read): ${ms(started)} ms, ${scanned.keys.length} keys`);
  console.log(`same counts: ${JSON.stringify(scanned.keys) === JSON.stringify(kept.keys)}`);
  await reader.close();
} finally {
  rmSync(directory, { recursive: true, force: true });
}
