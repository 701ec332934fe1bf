import type { MetadataFilter } from "@lookup-knowledge/core";
import { matchesFilter } from "../../matches-filter.js";
import type { PineconeTestMetric, PineconeTestServerOptions } from "../pinecone-test-server.js";
import { HttpFailure } from "./http-failure.js";

/** A vector as the emulated index stores it. */
export interface StoredVector {
  id: string;
  values: number[];
  sparseValues?: { indices: number[]; values: number[] };
  metadata?: Record<string, unknown>;
}

/** A vector and its score against a query. */
export interface ScoredVector {
  vector: StoredVector;
  score: number;
}

/**
 * The state of the emulated index: its metric, name and dimension (fixed by the first vector
 * written when not given), its namespaces of vectors, and the scoring of a query against them.
 */
export class PineconeTestIndex {
  readonly metric: PineconeTestMetric;
  readonly indexName: string;
  dimension: number | undefined;
  /** The server's URL, once it listens: the host `describeIndex` reports. */
  url = "";
  readonly namespaces = new Map<string, Map<string, StoredVector>>();

  constructor(readonly options: PineconeTestServerOptions) {
    this.metric = options.metric ?? "cosine";
    this.indexName = options.indexName ?? "test-index";
    this.dimension = options.dimension;
  }

  /** The vectors of a namespace (the default one: `""`), created empty when first named. */
  namespace(name: string | undefined): Map<string, StoredVector> {
    const key = name ?? "";
    let vectors = this.namespaces.get(key);
    if (vectors === undefined) {
      vectors = new Map();
      this.namespaces.set(key, vectors);
    }
    return vectors;
  }

  /** A 400 unless `values` has the index's dimension; the first vector ever checked fixes it. */
  checkDimension(values: number[] | undefined, what: string): void {
    if (values === undefined) return;
    if (this.dimension === undefined) this.dimension = values.length;
    if (values.length !== this.dimension) {
      throw new HttpFailure(400, `Vector dimension ${values.length} does not match the dimension of the index ${this.dimension} (${what})`);
    }
  }

  /** The `topK` vectors passing the filter (unless the server ignores filters), best first by the metric, ties by id. */
  rank(
    vectors: Map<string, StoredVector>,
    dense: number[] | undefined,
    sparse: StoredVector["sparseValues"],
    filter: MetadataFilter | undefined,
    topK: number,
  ): ScoredVector[] {
    const scored: ScoredVector[] = [];
    for (const vector of vectors.values()) {
      if (filter !== undefined && this.options.ignoreFilters !== true && !matchesFilter(vector.metadata ?? {}, filter)) continue;
      scored.push({ vector, score: scoreVector(this.metric, vector, dense, sparse) });
    }
    const direction = this.metric === "euclidean" ? 1 : -1;
    scored.sort((left, right) => direction * (left.score - right.score) || (left.vector.id < right.vector.id ? -1 : 1));
    return scored.slice(0, topK);
  }
}

/** The score Pinecone reports: squared Euclidean distance, cosine similarity, or dot product (dense plus sparse). */
function scoreVector(
  metric: PineconeTestMetric,
  vector: StoredVector,
  dense: number[] | undefined,
  sparse: StoredVector["sparseValues"],
): number {
  const values = vector.values;
  if (metric === "euclidean") {
    let sum = 0;
    for (let i = 0; i < values.length; i += 1) sum += ((values[i] ?? 0) - (dense?.[i] ?? 0)) ** 2;
    return sum;
  }
  let dot = 0;
  for (let i = 0; i < values.length; i += 1) dot += (values[i] ?? 0) * (dense?.[i] ?? 0);
  if (metric === "cosine") {
    const norms = norm(values) * norm(dense ?? []);
    return norms === 0 ? 0 : dot / norms;
  }
  if (sparse !== undefined && vector.sparseValues !== undefined) {
    const weights = new Map<number, number>();
    sparse.indices.forEach((index, position) => {
      weights.set(index, sparse.values[position] ?? 0);
    });
    vector.sparseValues.indices.forEach((index, position) => {
      dot += (weights.get(index) ?? 0) * (vector.sparseValues?.values[position] ?? 0);
    });
  }
  return dot;
}

function norm(values: number[]): number {
  let sum = 0;
  for (const value of values) sum += value * value;
  return Math.sqrt(sum);
}
