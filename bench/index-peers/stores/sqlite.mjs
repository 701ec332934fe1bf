// SQLite through better-sqlite3: FTS5 (porter stemmer, contentless) for lexical search and
// sqlite-vec's vec0 table (float32, cosine, exact scan) for vectors, one file, WAL off.
// Lexical queries are the query's words ORed (FTS5's default is AND, which most questions
// match nowhere), ranked by bm25(). Hybrid is lexical top 50 and dense top 50 fused by
// reciprocal rank (k = 60), as LanceDB's reranker does.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";

const candidates = 50;

function connect(directory) {
  mkdirSync(directory, { recursive: true });
  const db = new Database(join(directory, "index.sqlite"));
  sqliteVec.load(db);
  return db;
}

export async function build({ directory, batches, dimension }) {
  const db = connect(directory);
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.exec(`
    create table chunks (rowid integer primary key, id text not null);
    create virtual table fts using fts5(text, content='', tokenize='porter unicode61');
    create virtual table vec using vec0(embedding float[${dimension}] distance_metric=cosine);
  `);
  const addChunk = db.prepare("insert into chunks (rowid, id) values (?, ?)");
  const addText = db.prepare("insert into fts (rowid, text) values (?, ?)");
  const addVector = db.prepare("insert into vec (rowid, embedding) values (?, ?)");
  // One transaction per batch of `batches` (10,000 chunks from store-child.mjs).
  const insert = db.transaction((start, chunks, floats) => {
    chunks.forEach((chunk, offset) => {
      const rowid = BigInt(start + offset + 1);
      addChunk.run(rowid, chunk.id);
      addText.run(rowid, chunk.text);
      addVector.run(rowid, Buffer.from(floats.buffer, floats.byteOffset + offset * dimension * 4, dimension * 4));
    });
  });
  for (const { start, chunks, floats } of batches) insert(start, chunks, floats);
  db.exec("insert into fts (fts) values ('optimize')");
  db.close();
}

/** The query's words as an FTS5 OR of quoted terms (nothing from the query is FTS5 syntax). */
export function ftsQuery(text) {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].map((word) => `"${word}"`).join(" OR ");
}

export async function open({ directory }) {
  const db = connect(directory);
  return {
    async modes() {
      const lexicalStatement = db.prepare(
        "select chunks.id as id from fts join chunks on chunks.rowid = fts.rowid where fts match ? order by bm25(fts) limit ?",
      );
      const denseStatement = db.prepare(
        "select chunks.id as id from (select rowid, distance from vec where embedding match ? and k = ?) as hits join chunks on chunks.rowid = hits.rowid order by hits.distance",
      );
      const lexical = (query, k) => lexicalStatement.all(ftsQuery(query.text), k).map((row) => row.id);
      const dense = (query, k) => denseStatement.all(Buffer.from(Float32Array.from(query.vector).buffer), k).map((row) => row.id);
      return {
        lexical: async (query, k) => lexical(query, k),
        dense: async (query, k) => dense(query, k),
        hybrid: async (query, k) => {
          const fused = new Map();
          for (const list of [lexical(query, candidates), dense(query, candidates)]) {
            list.forEach((id, rank) => {
              fused.set(id, (fused.get(id) ?? 0) + 1 / (60 + rank + 1));
            });
          }
          return [...fused]
            .sort((left, right) => right[1] - left[1])
            .slice(0, k)
            .map(([id]) => id);
        },
        close: async () => db.close(),
      };
    },
  };
}
