// LanceDB (`@lancedb/lancedb`): one table of id, text and a FixedSizeList<Float32> vector,
// fed as Arrow record batches (plain JS rows stalled its build at 100k), a full-text index
// on text (stemmed, stop words removed) and no vector index, so dense search is an exact
// (flat) cosine scan like ours. Hybrid is its own full-text + vector query fused by its RRF
// reranker.
import { join } from "node:path";
import { createRequire } from "node:module";

// On this 2-core machine the full-text index build over more than a few fragments
// deadlocks (all threads asleep, at 50k rows and up) with Lance's CPU pool at its default
// size (the core count); a larger pool does not add CPU, it only avoids the hang.
process.env.LANCE_CPU_THREADS ??= "8";
const lancedb = await import("@lancedb/lancedb");

// LanceDB is CommonJS and checks `instanceof Table` against the CommonJS build of
// apache-arrow: the ESM build's classes are other classes, and it silently adds 0 rows.
const { Field, FixedSizeList, Float32, makeData, makeVector, Schema, Table, Utf8, vectorFromArray } = createRequire(import.meta.url)(
  "apache-arrow",
);

const batchRows = 10_000;
/**
 * `BENCH_LANCE_TEXT_ONLY=1`: a table of id and text alone (no vectors), searched lexically
 * only: LanceDB at sizes whose vectors do not fit the disk beside ours (10M chunks: ~47 GB
 * with them). The same setting must be given to the build and to the queries.
 */
const textOnly = process.env.BENCH_LANCE_TEXT_ONLY === "1";

function schemaFor(dimension) {
  const fields = [new Field("id", new Utf8(), false), new Field("text", new Utf8(), false)];
  if (!textOnly) fields.push(new Field("vector", new FixedSizeList(dimension, new Field("item", new Float32(), true)), false));
  return new Schema(fields);
}

/** One Arrow table of `chunks` and their vectors (`floats`: `chunks.length` x `dimension`; left out when `textOnly`). */
function arrowBatch(chunks, floats, dimension) {
  const columns = {
    id: vectorFromArray(
      chunks.map((chunk) => chunk.id),
      new Utf8(),
    ),
    text: vectorFromArray(
      chunks.map((chunk) => chunk.text),
      new Utf8(),
    ),
  };
  if (textOnly) return new Table(columns);
  const type = new FixedSizeList(dimension, new Field("item", new Float32(), true));
  const values = makeData({ type: new Float32(), length: chunks.length * dimension, data: floats });
  return new Table({ ...columns, vector: makeVector(makeData({ type, length: chunks.length, nullCount: 0, child: values })) });
}

export async function build({ directory, batches, dimension }) {
  const db = await lancedb.connect(join(directory, "lance"));
  const table = await db.createEmptyTable("chunks", schemaFor(dimension));
  for (const { chunks, floats } of batches) {
    for (let start = 0; start < chunks.length; start += batchRows) {
      const end = Math.min(chunks.length, start + batchRows);
      await table.add(arrowBatch(chunks.slice(start, end), floats.subarray(start * dimension, end * dimension), dimension));
    }
  }
  await table.createIndex("text", { config: lancedb.Index.fts({ stem: true, removeStopWords: true, withPosition: false }) });
  table.close();
  db.close();
}

export async function open({ directory }) {
  const db = await lancedb.connect(join(directory, "lance"));
  const table = await db.openTable("chunks");
  return {
    async modes() {
      const reranker = await lancedb.rerankers.RRFReranker.create(60);
      const ids = (rows) => rows.map((row) => row.id);
      const lexical = async (query, k) => ids(await table.query().fullTextSearch(query.text).select(["id"]).limit(k).toArray());
      const close = async () => {
        table.close();
        db.close();
      };
      if (textOnly) return { lexical, close };
      return {
        lexical,
        dense: async (query, k) => ids(await table.vectorSearch(query.vector).distanceType("cosine").select(["id"]).limit(k).toArray()),
        hybrid: async (query, k) =>
          ids(
            await table
              .query()
              .fullTextSearch(query.text)
              .nearestTo(query.vector)
              .distanceType("cosine")
              .rerank(reranker)
              .select(["id"])
              .limit(k)
              .toArray(),
          ),
        close,
      };
    },
  };
}
