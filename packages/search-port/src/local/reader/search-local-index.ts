import type { MetadataFilter, SearchHit } from "@lookup-knowledge/core";
import { matchesFilter } from "../../matches-filter.js";
import { answerabilityModelName, scoreAnswerability } from "../answerability/answerability-model.js";
import { withUnseenCjkPieces } from "../lexical/unseen-cjk-pieces.js";
import type { LocalPortSettings } from "../port/read-local-port-settings.js";
import { recordContent, recordMetadata, sharedMetadata } from "../snapshot/index-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import { scopedSnapshot } from "../snapshot/scoped-snapshot.js";
import { searchSnapshot } from "./search-snapshot.js";

/** A search request as the local index runs it: read (`readSearchRequest`), its query analysed and, when dense search takes part, embedded. */
export interface LocalQuery {
  filter: MetadataFilter | undefined;
  scopeFilter: MetadataFilter | undefined;
  topK: number;
  /** The query's lexical terms (`lexicalTerms`), repeats included. */
  analysed: readonly string[];
  /** Weight of the dense score in the fused score (`queryDenseWeight`). */
  denseWeight: number;
  /** The query's embedding; absent when dense search takes no part. */
  vector: number[] | undefined;
}

/**
 * One search of the local index on `snapshot` (a reader's generation as the search started,
 * or the writer's current state), synchronous, so no commit can swap the files underneath:
 * lexical and dense scores fused (`searchSnapshot`) inside the caller's scope, the list cut
 * at `minScore` (on the fused score) and the best hit judged by the answerability model,
 * which never drops or rescales a hit (README, "Score").
 */
export function searchLocalIndex(settings: LocalPortSettings, snapshot: IndexSnapshot, query: LocalQuery): SearchHit[] {
  const { directory, denseFloor, answerability } = settings;
  const { filter, scopeFilter, topK, vector, denseWeight } = query;
  // The caller's scope (`scopeFilter`, else the whole filter) is searched as if the index held
  // nothing else, so no score, signal or hint depends on records outside it (issue 33).
  const scope = scopeFilter ?? filter;
  const scoped = scopedSnapshot(snapshot, scope, directory);
  const terms = withUnseenCjkPieces(query.analysed, scoped.lexicon);
  // Inside the scope only a steering filter is left to test, and it is judged against the scope.
  const steering = filter !== undefined && scopeFilter !== undefined ? filter : undefined;
  const accepts =
    steering === undefined ? undefined : (slot: number) => matchesFilter(sharedMetadata(scoped.records, slot, directory), steering);
  const inScope = steering === undefined ? undefined : () => true;
  const approximateCandidates = settings.approximateCandidates;
  const { slots, signals, filterShare } = searchSnapshot(
    scoped,
    { terms, vector, denseWeight, topK, accepts, inScope, approximateCandidates },
    denseFloor,
  );
  // Ranking and answerability are apart: every hit keeps its fused ranking score, and the
  // model's judgement of the best hit rides on that hit, whatever it says, so a list the
  // model doubts still reaches the retriever with the judgement that explains it. Under a
  // steering filter the signals also say how much of the caller's scope's best fused score
  // the filtered list kept (`filterShare`); the retriever decides what that means (R9).
  const judged = answerability !== undefined && signals !== undefined ? scoreAnswerability(answerability, signals) : undefined;
  const hits: SearchHit[] = [];
  for (const { slot, score } of slots) {
    if (score < settings.minScore) break;
    hits.push({
      id: scoped.keys.id(slot),
      content: recordContent(scoped.records, slot),
      metadata: recordMetadata(scoped.records, slot, directory),
      score: Math.min(1, score),
    });
  }
  const first = hits[0];
  if (first !== undefined && judged !== undefined && signals !== undefined && answerability !== undefined) {
    const shown = filterShare === undefined ? signals : { ...signals, filterShare };
    first.answerability = { score: judged, model: answerabilityModelName(answerability), signals: roundedSignals(shown) };
  }
  return hits;
}

function roundedSignals(signals: Readonly<Record<string, number>>): Record<string, number> {
  const rounded: Record<string, number> = {};
  for (const [name, value] of Object.entries(signals)) rounded[name] = Math.round(value * 10000) / 10000;
  return rounded;
}
