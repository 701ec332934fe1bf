// Our local index (`@lookup-knowledge/search-port/local`), fed the cached vectors through an
// Embeddings object that returns them instead of embedding again (the query vectors too).
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { codeRoot } from "../corpus.mjs";

const { openLocalSearchPort } = await import(pathToFileURL(join(codeRoot, "packages/search-port/dist/local/index.js")).href);

/**
 * `BENCH_FLUSH_RECORDS`: the records a writer holds in memory before it writes them as a
 * segment (default: the writer's own), set through the writer's internal test hooks, to pick
 * the default by measurement.
 */
async function openWriter(options) {
  const text = process.env.BENCH_FLUSH_RECORDS;
  if (text === undefined) return openLocalSearchPort(options);
  const flushRecords = Number(text);
  if (!Number.isInteger(flushRecords) || flushRecords < 1)
    throw new Error(`BENCH_FLUSH_RECORDS must be a whole number of at least 1, got ${text}`);
  const { openLocalSearchPortWithHooks } = await import(
    pathToFileURL(join(codeRoot, "packages/search-port/dist/local/open-local-search-port.js")).href
  );
  return openLocalSearchPortWithHooks(options, { flushRecords });
}

function cachedEmbeddings(identity, documentVectors, queryVectors) {
  return {
    identity,
    async embedDocuments(texts) {
      return texts.map((text) => {
        const vector = documentVectors.get(text);
        if (vector === undefined) throw new Error(`no cached vector for a chunk text (${text.slice(0, 40)}...)`);
        return vector;
      });
    },
    async embedQuery(text) {
      const vector = queryVectors.get(text);
      if (vector === undefined) throw new Error(`no cached vector for the query ${JSON.stringify(text)}`);
      return vector;
    },
  };
}

/**
 * The embedder of a build: answers the texts of the upsert under way (`upsert.texts`) with
 * their rows (`upsert.rows`) in the order they were asked, each text checked against the
 * chunk's own, and looks a text up only when it comes out of that order. SQLite's build is
 * handed its vectors; a `Map` keyed by a million texts of ~1.5 KB (hashing each one twice)
 * cost ours about 9 s of CPU at 1M chunks (session 13's profile), which is no part of a build.
 */
function buildEmbeddings(identity, upsert) {
  return {
    identity,
    async embedDocuments(texts) {
      const answer = texts.map((text, index) => {
        const at = upsert.next + index;
        if (upsert.texts[at] === text) return upsert.rows[at];
        const found = upsert.texts.indexOf(text);
        if (found < 0) throw new Error(`no cached vector for a chunk text (${text.slice(0, 40)}...)`);
        return upsert.rows[found];
      });
      upsert.next += texts.length;
      return answer;
    },
    async embedQuery() {
      throw new Error("a build embeds no query");
    },
  };
}

/**
 * Upserts each batch of `batches` (`{ chunks, floats }`, corpus.mjs `chunkBatches`) 1,000 chunks
 * at a time, the embedder answering with `Float32Array` views of the batch's vectors (the
 * writer takes typed rows as they are), then commits.
 */
export async function build({ directory, batches, dimension, identity }) {
  const upsert = { texts: [], rows: [], next: 0 };
  const embeddings = buildEmbeddings(identity, upsert);
  const writer = await openWriter({ directory: join(directory, "index"), mode: "write", embeddings });
  for (const { chunks, floats } of batches) {
    for (let start = 0; start < chunks.length; start += 1000) {
      const batch = chunks.slice(start, start + 1000);
      upsert.texts = batch.map((chunk) => chunk.text);
      upsert.rows = batch.map((_, offset) => floats.subarray((start + offset) * dimension, (start + offset + 1) * dimension));
      upsert.next = 0;
      await writer.upsert(
        batch.map((chunk) => ({
          id: chunk.id,
          content: chunk.content,
          metadata: { docId: chunk.docId, chunkIndex: 0, title: chunk.title },
        })),
      );
    }
  }
  await writer.commit();
  await writer.close();
}

/**
 * Opens the index as the product does for hybrid search (vectors loaded); the lexical and
 * dense-only modes are two more ports on the same folder, opened after the measured open.
 * minScore 0 everywhere, so that every mode returns its full top k.
 */
export async function open({ directory, identity, queries }) {
  const queryVectors = new Map(queries.map((query) => [query.text, query.vector]));
  const embeddings = cachedEmbeddings(identity, new Map(), queryVectors);
  const index = join(directory, "index");
  const hybrid = await openLocalSearchPort({ directory: index, embeddings, minScore: 0 });
  return {
    async modes() {
      const lexical = await openLocalSearchPort({ directory: index, embeddings, denseWeight: 0, minScore: 0 });
      const dense = await openLocalSearchPort({ directory: index, embeddings, denseWeight: 1, denseFloor: 0, minScore: 0 });
      const ids = (hits) => hits.map((hit) => hit.id);
      return {
        lexical: async (query, k) => ids(await lexical.search({ query: query.text, topK: k })),
        dense: async (query, k) => ids(await dense.search({ query: query.text, topK: k })),
        hybrid: async (query, k) => ids(await hybrid.search({ query: query.text, topK: k })),
        close: async () => {
          await lexical.close();
          await dense.close();
          await hybrid.close();
        },
      };
    },
  };
}
