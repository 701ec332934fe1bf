import type { DocumentInterface } from "@langchain/core/documents";
import type { VectorStoreSettings } from "./read-vector-store-settings.js";

/**
 * The profile's search, or the store's `similaritySearchWithScore`, for `k` documents passing
 * the translated filter (`true`: no filter is sent).
 */
export function queryVectorStore(
  settings: VectorStoreSettings,
  query: string,
  k: number,
  translated: unknown,
): Promise<Array<[DocumentInterface, number]>> {
  const { profile, vectorStore } = settings;
  const filter = translated === true ? undefined : translated;
  if (profile.search !== undefined) return profile.search(vectorStore, query, k, filter);
  return vectorStore.similaritySearchWithScore(query, k, filter as never);
}
