import type { SearchHit } from "@lookup-knowledge/core";
import type { DocumentInterface } from "@langchain/core/documents";
import { raceWithAbort, throwIfAborted } from "../internal/abort.js";
import { compareHits } from "../internal/compare-hits.js";
import { readSearchRequest } from "../internal/read-search-request.js";
import type { SearchRequest } from "../search-request.js";
import { assertVectorStoreFilterHonoured } from "./assert-vector-store-filter-honoured.js";
import { normalizeVectorStoreScore } from "./normalize-vector-store-score.js";
import { queryVectorStore } from "./query-vector-store.js";
import type { VectorStoreSettings } from "./read-vector-store-settings.js";
import { vectorStoreCallFailed } from "./vector-store-call-failed.js";

/**
 * The `search` of the VectorStore port: the filter validated and translated by the profile,
 * the store asked for the profile's number of candidates, every document checked against the
 * filter, scores normalised by the profile's score kind, best first, ties by id, at most `topK`.
 */
export async function searchVectorStore(settings: VectorStoreSettings, request: SearchRequest): Promise<SearchHit[]> {
  const { profile, vectorStore } = settings;
  const signal = request.signal;
  throwIfAborted(signal);
  const { filter, topK, query } = readSearchRequest(request);
  if (topK === 0) return [];
  const translated = filter === undefined ? true : profile.translateFilter(filter, vectorStore);
  if (translated === false) return [];
  const results = await raceWithAbort(
    (async () => {
      const k = profile.candidates === undefined ? topK : await profile.candidates(vectorStore, topK, translated !== true);
      return queryVectorStore(settings, query, k, translated);
    })().catch((error: unknown) => vectorStoreCallFailed(profile, "similaritySearchWithScore", error)),
    signal,
  );
  const hits = results.map(([document, raw]) => toHit(settings, document, raw));
  for (const hit of hits) assertVectorStoreFilterHonoured(profile, hit.metadata, hit.id, filter, "similaritySearchWithScore");
  hits.sort(compareHits);
  return hits.slice(0, topK);
}

/** A hit of the document: the record id from `idKey` (or the store's id), the id key out of the metadata, the score normalised and clamped to 0..1. */
function toHit(settings: VectorStoreSettings, document: DocumentInterface, raw: number): SearchHit {
  const scoreKind = settings.profile.score;
  const { [settings.idKey]: recordId, ...metadata } = document.metadata ?? {};
  const id = typeof recordId === "string" ? recordId : document.id;
  const score = typeof scoreKind === "function" ? scoreKind(raw) : normalizeVectorStoreScore(raw, scoreKind);
  return {
    ...(id === undefined ? {} : { id }),
    content: typeof document.pageContent === "string" ? document.pageContent : "",
    metadata,
    score: Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0,
  };
}
