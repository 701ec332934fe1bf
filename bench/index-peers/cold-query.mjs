// One cold query in a process of its own, for cold-start.mjs:
//   node cold-query.mjs ours-hybrid <code root> <index folder> <query>    the local port with the offline embedder (the product's default)
//   node cold-query.mjs ours-lexical <code root> <index folder> <query>   the local port without an embedder (lexical only)
//   node cold-query.mjs sqlite <code root> <database file> <query>         better-sqlite3, FTS5 (bm25), as stores/sqlite.mjs queries it
// Each opens its index, runs one top-10 query, prints how many ids it found and exits: what a
// one-query library process costs, module loading included. Nothing else is imported.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [kind, codeRoot, location, query] = process.argv.slice(2);
if (!["ours-hybrid", "ours-lexical", "sqlite"].includes(kind) || !codeRoot || !location || !query) {
  throw new Error(
    `usage: cold-query.mjs ours-hybrid|ours-lexical|sqlite <code root> <index> <query>, got ${process.argv.slice(2).join(" ")}`,
  );
}

if (kind === "sqlite") {
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(location, { readonly: true });
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const match = [...new Set(words)].map((word) => `"${word}"`).join(" OR ");
  const rows = db
    .prepare("select chunks.id as id from fts join chunks on chunks.rowid = fts.rowid where fts match ? order by bm25(fts) limit ?")
    .all(match, 10);
  db.close();
  console.log(rows.length);
} else {
  // What a user's `import "@lookup-knowledge/search-port/local"` loads: the file its package's exports name.
  const exported = (folder, subpath) => {
    const manifest = JSON.parse(readFileSync(join(codeRoot, folder, "package.json"), "utf8"));
    return pathToFileURL(join(codeRoot, folder, manifest.exports[subpath].default)).href;
  };
  const { openLocalSearchPort } = await import(exported("packages/search-port", "./local"));
  const options = { directory: location, mode: "read" };
  if (kind === "ours-hybrid") {
    const { createOfflineEmbeddings } = await import(exported("packages/embeddings", "."));
    options.embeddings = createOfflineEmbeddings();
  }
  const port = await openLocalSearchPort(options);
  const hits = await port.search({ query, topK: 10 });
  await port.close();
  console.log(hits.length);
}
