import type { SearchHit } from "@lookup-knowledge/core";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { z } from "zod";
import { raceWithAbort } from "../internal/abort.js";
import type { PineconeFilter } from "../internal/to-pinecone-filter.js";
import { callPinecone } from "./call-pinecone.js";
import { lexicalSparseValues } from "./lexical-sparse-values.js";
import type { SparseValues } from "./lexical-sparse-values.js";
import { namespaceOption, parsePineconeResponse } from "./parse-pinecone-response.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";
import { toPineconeHit } from "./to-pinecone-hit.js";
import { checkVector, unitVector } from "./unit-vector.js";

const matchSchema = z.object({
  id: z.string(),
  score: z.number(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
});
const queryResponseSchema = z.object({ matches: z.array(matchSchema) });

/**
 * The hits of a dense or hybrid search: the query embedded at unit length (none when it embeds
 * to a zero vector), in hybrid mode weighted with its lexical sparse values, then `query` with
 * the native filter.
 */
export async function queryPineconeVectors(
  settings: PineconeSettings,
  query: string,
  topK: number,
  nativeFilter: PineconeFilter | undefined,
  signal: AbortSignal | undefined,
): Promise<SearchHit[]> {
  const { index, namespace, policy } = settings;
  const embedded = await raceWithAbort(embedQuery(settings.embeddings as EmbeddingsInterface, query), signal);
  if (embedded === undefined) return [];
  const { vector, sparseVector } = settings.mode === "hybrid" ? hybridQuery(embedded, query, settings.lexicalWeight) : { vector: embedded };
  const response = await callPinecone(
    "query",
    () =>
      index.query({
        ...namespaceOption(namespace),
        topK,
        vector,
        ...(sparseVector === undefined ? {} : { sparseVector }),
        ...(nativeFilter === undefined ? {} : { filter: nativeFilter }),
        includeMetadata: true,
        includeValues: false,
      }),
    policy,
    signal,
  );
  const parsed = parsePineconeResponse(queryResponseSchema, response, "query");
  return parsed.matches.map((match) => toPineconeHit(settings, match.id, match.score, match.metadata ?? {}));
}

async function embedQuery(embeddings: EmbeddingsInterface, query: string): Promise<number[] | undefined> {
  const vector = await embeddings.embedQuery(query);
  checkVector(vector, "embedQuery");
  return unitVector(vector);
}

/** The dense values weighted by the dense share, and the query's lexical sparse values by `lexicalWeight` (none when it has no terms or the weight is 0). */
function hybridQuery(embedded: number[], query: string, lexicalWeight: number): { vector: number[]; sparseVector?: SparseValues } {
  const denseShare = 1 - lexicalWeight;
  const vector = embedded.map((value) => value * denseShare);
  const sparse = lexicalSparseValues(query);
  if (sparse.indices.length === 0 || lexicalWeight <= 0) return { vector };
  return { vector, sparseVector: { indices: sparse.indices, values: sparse.values.map((value) => value * lexicalWeight) } };
}
