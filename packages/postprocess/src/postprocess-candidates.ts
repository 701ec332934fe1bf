import { hasL0Hints, type Candidate, type EvidenceBlock, type L0Hints, type RerankTrace } from "@lookup-knowledge/core";
import { buildEvidenceBlocks } from "./build-evidence-blocks.js";
import { buildRerankTrace } from "./build-rerank-trace.js";
import { capPerDocument } from "./cap-per-document.js";
import { dedupeCandidates } from "./dedupe-candidates.js";
import { compareByPort } from "./internal/port-order.js";
import { limitReturn } from "./limit-return.js";
import { rerankCandidates } from "./rerank-candidates.js";
import type { RankedCandidate, RerankWeights } from "./rerank-candidates.js";

export interface PostprocessOptions {
  /** The query the candidates were retrieved for (its terms feed the heading and query-term boosts). */
  query: string;
  hints: L0Hints;
  /** `rag.max-chunks-per-document` (R16). */
  maxChunksPerDocument: number;
  /** `rag.return-n` (R17). */
  returnN: number;
  weights?: Partial<RerankWeights>;
}

export interface PostprocessOutput {
  /** The returned candidates, best first. */
  ranked: RankedCandidate[];
  evidenceBlocks: EvidenceBlock[];
  /** The trace of the returned blocks. */
  rerankTrace: RerankTrace;
  droppedByCap: Candidate[];
  droppedByReturnN: RankedCandidate[];
  /** How many candidates were merged into another with the same evidence key. */
  duplicatesMerged: number;
}

/**
 * Post-processing in the order of R1, after identity (`normalizeHits`): dedup by evidence
 * key (R15) -> per-document cap (R16) -> rule rerank (R18) -> return width (R17) ->
 * evidence blocks (R20) and their rerank trace (R19).
 *
 * The per-document cap runs before rerank, on the port's ranking: candidates are ordered by
 * the port's score (unscored after scored, then by port position) and the best
 * `maxChunksPerDocument` of each document survive, whatever boosts they would get later.
 */
export function postprocessCandidates(candidates: Candidate[], options: PostprocessOptions): PostprocessOutput {
  const deduped = dedupeCandidates(candidates);
  const byPort = [...deduped].sort(compareByPort);
  const capped = capPerDocument(byPort, options.maxChunksPerDocument);
  const reranked = rerankCandidates(capped.kept, {
    query: options.query,
    hints: options.hints,
    ...(options.weights === undefined ? {} : { weights: options.weights }),
  });
  const returned = limitReturn(reranked, options.returnN);
  return {
    ranked: returned.kept,
    evidenceBlocks: buildEvidenceBlocks(returned.kept, { retrievalLayer: hasL0Hints(options.hints) ? "L0+L1" : "L1" }),
    rerankTrace: buildRerankTrace(returned.kept),
    droppedByCap: capped.dropped,
    droppedByReturnN: returned.dropped,
    duplicatesMerged: candidates.length - deduped.length,
  };
}
