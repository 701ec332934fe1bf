import type { SearchHit } from "@lookup-knowledge/core";
import { lexicalTerms } from "@lookup-knowledge/text";
import { raceWithAbort, throwIfAborted } from "../../internal/abort.js";
import type { readSearchRequest } from "../../internal/read-search-request.js";
import { matchesFilter } from "../../matches-filter.js";
import { answerabilityModelName, scoreAnswerability } from "../answerability/answerability-model.js";
import { EmbedderMismatchError } from "../errors/embedder-mismatch-error.js";
import { recordContent, recordMetadata, sharedMetadata } from "../snapshot/index-snapshot.js";
import type { IndexSnapshot } from "../snapshot/index-snapshot.js";
import type { LocalPortSettings } from "../port/read-local-port-settings.js";
import { queryDenseWeight } from "../dense/query-dense-weight.js";
import { scopedSnapshot } from "../snapshot/scoped-snapshot.js";
import { searchSnapshot } from "./search-snapshot.js";
import { withUnseenCjkPieces } from "../lexical/unseen-cjk-pieces.js";

/** What a search sees of the port that runs it. */
export interface LocalSearchView {
  /** A writer's vector dimension (0: it holds no vectors). */
  dimension: number;
  /** A writer's current state, pending changes folded in. */
  current(): IndexSnapshot;
  /** Refuses to go on once the port is closed. */
  ensureNotClosed(): void;
}

/**
 * One search of the local index, on `pinned` (a reader's generation as the search started) or
 * on the writer's current state: the query embedded (when dense search is on), lexical and
 * dense scores fused (`searchSnapshot`), the list cut at `minScore` (on the fused score) and
 * the best hit judged by the answerability model, which never drops or rescales a hit
 * (README, "Score").
 */
export async function searchLocalIndex(
  settings: LocalPortSettings,
  view: LocalSearchView,
  pinned: IndexSnapshot | undefined,
  { filter, scopeFilter, topK, query }: ReturnType<typeof readSearchRequest>,
  signal: AbortSignal | undefined,
): Promise<SearchHit[]> {
  const { directory, mode, embeddings, denseFloor, minScore, answerability } = settings;
  const analysed = lexicalTerms(query);
  const denseWeight = queryDenseWeight(query, analysed, settings);
  let vector: number[] | undefined;
  const denseReady = mode === "write" ? view.dimension > 0 : pinned?.vectors !== undefined;
  if (embeddings !== undefined && denseWeight > 0 && denseReady && topK > 0) {
    vector = await raceWithAbort(embeddings.embedQuery(query), signal);
    if (!Array.isArray(vector) || vector.length !== settings.embedder?.dimension) {
      throw new EmbedderMismatchError({
        directory,
        indexEmbedder: settings.embedder,
        givenEmbedder: settings.embedder,
        reason: `embedQuery returned a vector of ${Array.isArray(vector) ? vector.length : "no"} dimensions`,
      });
    }
  }
  throwIfAborted(signal);
  view.ensureNotClosed();
  // From here on everything is synchronous: no commit can swap the files underneath.
  // The caller's scope (`scopeFilter`, else the whole filter) is searched as if the index held
  // nothing else, so no score, signal or hint depends on records outside it (issue 33).
  const scope = scopeFilter ?? filter;
  const snapshot = scopedSnapshot(pinned ?? view.current(), scope, directory);
  const terms = withUnseenCjkPieces(analysed, snapshot.lexicon);
  // Inside the scope only a steering filter is left to test, and it is judged against the scope.
  const steering = filter !== undefined && scopeFilter !== undefined ? filter : undefined;
  const accepts =
    steering === undefined ? undefined : (slot: number) => matchesFilter(sharedMetadata(snapshot.records, slot, directory), steering);
  const inScope = steering === undefined ? undefined : () => true;
  const approximateCandidates = settings.approximateCandidates;
  const { slots, signals, filterShare } = searchSnapshot(
    snapshot,
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
    if (score < minScore) break;
    hits.push({
      id: snapshot.keys.id(slot),
      content: recordContent(snapshot.records, slot),
      metadata: recordMetadata(snapshot.records, slot, directory),
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
