import { readDocId } from "@lookup-knowledge/core";
import type { DocumentInterface } from "@langchain/core/documents";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { toPineconeFilter } from "../internal/to-pinecone-filter.js";
import { functionFilter } from "./function-filter.js";
import { toLibsqlFilter } from "./to-libsql-filter.js";
import type { LibsqlFilter } from "./to-libsql-filter.js";
import { VectorStorePortError } from "./vector-store-port-error.js";
import type { VectorStoreProfile } from "./vector-store-profile.js";

interface MemoryVector {
  id?: string;
  metadata?: Record<string, unknown>;
}

function memoryVectorsOf(vectorStore: VectorStoreInterface): MemoryVector[] {
  const vectors = (vectorStore as unknown as { memoryVectors?: unknown }).memoryVectors;
  if (!Array.isArray(vectors)) {
    throw new VectorStorePortError({
      code: "vector_store_failed",
      store: "memory",
      operation: "write",
      message: "expected a MemoryVectorStore (from @langchain/classic/vectorstores/memory) with a memoryVectors array",
    });
  }
  return vectors as MemoryVector[];
}

function setMemoryVectors(vectorStore: VectorStoreInterface, vectors: MemoryVector[]): void {
  (vectorStore as unknown as { memoryVectors: MemoryVector[] }).memoryVectors = vectors;
}

/**
 * `MemoryVectorStore` (`@langchain/classic/vectorstores/memory`): cosine similarity (its
 * default), function filters built from `matchesFilter`. It has no `delete`, so records are
 * removed from its `memoryVectors` list directly.
 */
export const memoryVectorStoreProfile: VectorStoreProfile = {
  name: "memory",
  score: "similarity",
  translateFilter: (filter) => functionFilter(filter),
  async removeRecords(vectorStore, recordIds, idKey) {
    const wanted = new Set(recordIds);
    setMemoryVectors(
      vectorStore,
      memoryVectorsOf(vectorStore).filter((vector) => !(wanted.has(vector.id ?? "") || wanted.has(String(vector.metadata?.[idKey] ?? "")))),
    );
  },
  async removeDocuments(vectorStore, docIds) {
    const wanted = new Set(docIds);
    const vectors = memoryVectorsOf(vectorStore);
    const kept = vectors.filter((vector) => !wanted.has(readDocId(vector.metadata ?? {}) ?? ""));
    setMemoryVectors(vectorStore, kept);
    return vectors.length - kept.length;
  },
};

interface LibsqlParts {
  db: {
    execute(statement: { sql: string; args: Record<string, string | number> }): Promise<{ rows: ArrayLike<Record<string, unknown>> }>;
  };
  table: string;
  column: string;
  embeddings: VectorStoreInterface["embeddings"];
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;

function libsqlPartsOf(vectorStore: VectorStoreInterface): LibsqlParts {
  const { db, table, column, embeddings } = vectorStore as unknown as {
    db?: { execute?: unknown };
    table?: unknown;
    column?: unknown;
    embeddings?: VectorStoreInterface["embeddings"];
  };
  if (db === undefined || typeof db.execute !== "function" || typeof table !== "string" || typeof column !== "string") {
    throw new VectorStorePortError({
      code: "vector_store_failed",
      store: "libsql",
      operation: "search",
      message: "expected a LibSQLVectorStore (from @langchain/community/vectorstores/libsql) with db, table and column",
    });
  }
  if (!identifier.test(table) || !identifier.test(column)) {
    throw new VectorStorePortError({
      code: "vector_store_failed",
      store: "libsql",
      operation: "search",
      message: `LibSQL table ${JSON.stringify(table)} and column ${JSON.stringify(column)} must be plain identifiers`,
    });
  }
  return { db: db as LibsqlParts["db"], table, column, embeddings: embeddings as LibsqlParts["embeddings"] };
}

/**
 * `LibSQLVectorStore` (`@langchain/community/vectorstores/libsql`): filters become SQL over the
 * JSON metadata (`toLibsqlFilter`), scores are `vector_distance_cos` (a cosine distance).
 *
 * The store's own query asks the approximate `vector_top_k` index for the k nearest rows and
 * filters afterwards, so a filter leaves fewer than k rows even when more match; and with
 * `@libsql/client` 0.17 the index stops finding some rows after deletes (a row inserted after
 * a delete can be missing even with k above the row count). This profile therefore searches
 * exactly: the same table, the same embeddings, `vector_distance_cos` over every row that
 * passes the filter, ordered, limited to k. That is a full scan, which suits the local,
 * single-file stores LibSQL is used for here; past a few hundred thousand chunks, use
 * Pinecone. Ids are row ids; the adapter finds records by its id key.
 */
export const libsqlVectorStoreProfile: VectorStoreProfile = {
  name: "libsql",
  score: "cosine-distance",
  translateFilter: (filter, vectorStore) => toLibsqlFilter(filter, libsqlPartsOf(vectorStore).table),
  async search(vectorStore, query, k, filter) {
    const { db, table, column, embeddings } = libsqlPartsOf(vectorStore);
    const vector = await embeddings.embedQuery(query);
    if (!Array.isArray(vector) || !vector.every((value) => typeof value === "number" && Number.isFinite(value))) {
      throw new VectorStorePortError({
        code: "vector_store_failed",
        store: "libsql",
        operation: "embedQuery",
        message: "the store's embeddings returned something other than an array of finite numbers",
      });
    }
    const where = filter === undefined ? { sql: "1", args: {} } : (filter as LibsqlFilter);
    const result = await db.execute({
      sql:
        `SELECT rowid AS id, content, metadata, vector_distance_cos(${column}, vector(:lkQueryVector)) AS distance ` +
        `FROM ${table} WHERE ${where.sql} ORDER BY distance ASC, rowid ASC LIMIT :lkLimit`,
      args: { ...where.args, lkQueryVector: `[${vector.join(",")}]`, lkLimit: k },
    });
    return Array.from(result.rows, (row): [DocumentInterface, number] => {
      const metadata: unknown = typeof row["metadata"] === "string" ? JSON.parse(row["metadata"]) : {};
      return [
        {
          id: String(row["id"]),
          pageContent: typeof row["content"] === "string" ? row["content"] : "",
          metadata: metadata !== null && typeof metadata === "object" ? (metadata as Record<string, unknown>) : {},
        },
        Number(row["distance"]),
      ];
    });
  },
};

/**
 * LangChain's `PineconeStore` (`@langchain/pinecone`): a similarity score (a cosine index;
 * for another metric give `score`), Pinecone filters (`toPineconeFilter`), upserts by id.
 * For writing, prefer `createPineconeSearchPort`: `@langchain/pinecone` 1.0 cannot add
 * documents with client 7 or later.
 */
export const pineconeVectorStoreProfile: VectorStoreProfile = {
  name: "pinecone",
  score: "similarity",
  translateFilter: (filter) => toPineconeFilter(filter),
  replacesById: true,
};

/** The built-in profiles, by `_vectorstoreType()`. */
export const vectorStoreProfiles: Readonly<Record<string, VectorStoreProfile>> = Object.freeze({
  memory: memoryVectorStoreProfile,
  libsql: libsqlVectorStoreProfile,
  pinecone: pineconeVectorStoreProfile,
});
