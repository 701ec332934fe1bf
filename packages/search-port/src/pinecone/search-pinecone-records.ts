import type { SearchHit } from "@lookup-knowledge/core";
import { z } from "zod";
import type { PineconeFilter } from "../internal/to-pinecone-filter.js";
import { callPinecone } from "./call-pinecone.js";
import { namespaceOption, parsePineconeResponse } from "./parse-pinecone-response.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";
import { toPineconeHit } from "./to-pinecone-hit.js";

const searchRecordsResponseSchema = z.object({
  result: z.object({
    hits: z.array(z.object({ _id: z.string(), _score: z.number(), fields: z.record(z.string(), z.unknown()).nullish() })),
  }),
});

/** The hits of an integrated-inference search: `searchRecords` with the query text (the index embeds it) and the native filter. */
export async function searchPineconeRecords(
  settings: PineconeSettings,
  query: string,
  topK: number,
  nativeFilter: PineconeFilter | undefined,
  signal: AbortSignal | undefined,
): Promise<SearchHit[]> {
  const { index, namespace, policy } = settings;
  const response = await callPinecone(
    "searchRecords",
    () =>
      index.searchRecords({
        ...namespaceOption(namespace),
        query: { topK, inputs: { text: query }, ...(nativeFilter === undefined ? {} : { filter: nativeFilter }) },
      }),
    policy,
    signal,
  );
  const parsed = parsePineconeResponse(searchRecordsResponseSchema, response, "searchRecords");
  return parsed.result.hits.map((hit) => toPineconeHit(settings, hit._id, hit._score, hit.fields ?? {}));
}
