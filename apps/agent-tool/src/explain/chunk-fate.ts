import type { Candidate, ContextPack, RagConfig, RerankBoost, RetrievalAttempt } from "@lookup-knowledge/core";
import { repeatedDocumentSignal, type PostprocessOutput, type RankedCandidate } from "@lookup-knowledge/postprocess";
import { steeredFilterMinShare } from "../retriever/classify-attempt.js";
import type { ExplainOutcome } from "./lookup-explanation.js";

const score = (value: number | undefined) => (value === undefined ? "unscored" : value.toFixed(3));

/** A boost as a message names it: its signal, and the word it matched when its reason quotes one (`keyword "refund"`). */
function boostName(boost: RerankBoost): string {
  const matched = /"[^"]*"/.exec(boost.reason);
  return matched === null ? boost.signal : `${boost.signal} ${matched[0]}`;
}

/**
 * Why a further block of a document was cut: the rerank's repeated-document demotion, said
 * only when the block would have been returned at its score before it (above the last block returned).
 */
function repeatedNote(cut: RankedCandidate, lastReturned: RankedCandidate | undefined): string {
  const demotion = cut.boosts.find((boost) => boost.signal === repeatedDocumentSignal);
  if (demotion === undefined || lastReturned === undefined || cut.rankScore - demotion.amount <= lastReturned.rankScore) return "";
  return ` It is a further block of a document ranked above it (${demotion.reason}, rerank weight repeatedDocument); at its own score it would have been returned.`;
}

/**
 * Where one evidence key the attempt's port returned ended up, read from the real stages'
 * output: cut by the per-document cap, cut by the return width, refused with its attempt,
 * omitted or truncated by the context budget, or included.
 */
export function chunkFate(input: {
  key: string;
  output: PostprocessOutput;
  trace: RetrievalAttempt;
  used: boolean;
  contextPack: ContextPack | undefined;
  config: Readonly<RagConfig>;
}): ExplainOutcome | undefined {
  const { key, output, trace, config } = input;
  // A chunk cut before the gate on an attempt the gate then refused: both are said.
  const alsoRefused =
    input.used || trace.outcome === "usable"
      ? ""
      : ` Attempt ${trace.attempt} was refused too (${trace.outcome}): ${refusalCause(trace, config.referenceThreshold)}.`;
  const capped = output.droppedByCap.find((candidate) => candidate.evidenceKey === key);
  if (capped) {
    return {
      kind: "cut_by_document_cap",
      evidenceKey: key,
      portRank: capped.portRank + 1,
      ...(capped.score === undefined ? {} : { portScore: capped.score }),
      maxChunksPerDocument: config.maxChunksPerDocument,
      message: `${key} (port rank ${capped.portRank + 1}, score ${score(capped.score)}) was cut by the per-document cap: rag.max-chunks-per-document=${config.maxChunksPerDocument} kept better-ranked chunks of its document.${alsoRefused}`,
    };
  }
  const cutIndex = output.droppedByReturnN.findIndex((candidate) => candidate.evidenceKey === key);
  const cut = output.droppedByReturnN[cutIndex];
  if (cut) {
    const rank = output.ranked.length + cutIndex + 1;
    return {
      kind: "cut_by_return_n",
      evidenceKey: key,
      rank,
      score: Math.round(cut.rankScore * 10_000) / 10_000,
      portRank: cut.portRank + 1,
      returnN: config.returnN,
      message: `${key} ranked ${rank} after rerank (port rank ${cut.portRank + 1}, score ${score(cut.rankScore)}), below rag.return-n=${config.returnN}.${repeatedNote(cut, output.ranked.at(-1))}${alsoRefused}`,
    };
  }
  const index = output.ranked.findIndex((candidate) => candidate.evidenceKey === key);
  const entry = output.rerankTrace.entries.find((traced) => traced.evidenceKey === key);
  if (index < 0 || !entry) return undefined;
  const rank = index + 1;
  const ranked = { evidenceKey: key, rank, score: entry.finalScore, portRank: entry.portRank };
  const breakdown = { ...(entry.baseScore === undefined ? {} : { baseScore: entry.baseScore }), boosts: entry.boosts };
  if (!input.used) {
    return {
      kind: "attempt_refused",
      ...ranked,
      ...(trace.topScore === undefined ? {} : { topScore: trace.topScore }),
      referenceThreshold: config.referenceThreshold,
      message: `${key} ranked ${rank} (port rank ${entry.portRank}, score ${score(entry.finalScore)}), but attempt ${trace.attempt} was refused (${trace.outcome}): ${refusalCause(trace, config.referenceThreshold)}.`,
    };
  }
  const pack = input.contextPack;
  const budget = pack ? { contextBudget: pack.budget, contextUsed: pack.used } : {};
  if (pack?.summary.omitted.some((omitted) => omitted.evidenceKey === key)) {
    return {
      kind: "omitted_by_budget",
      ...ranked,
      ...budget,
      message: `${key} ranked ${rank} (score ${score(entry.finalScore)}), but was omitted: rag.context-budget=${pack.budget} characters was used up by the blocks ranked above it.`,
    };
  }
  const block = pack?.blocks.find((packed) => packed.evidenceKey === key);
  if (pack && block?.truncated) {
    return {
      kind: "truncated_by_budget",
      ...ranked,
      ...breakdown,
      ...budget,
      keptChars: block.content.length,
      originalLength: block.originalLength,
      message: `${key} was included at rank ${rank} (score ${score(entry.finalScore)}) but truncated to ${block.content.length} of ${block.originalLength} characters by rag.context-budget=${pack.budget}.`,
    };
  }
  const boosts =
    entry.boosts.length === 0
      ? "no boosts"
      : entry.boosts.map((boost) => `${boostName(boost)} ${boost.amount >= 0 ? "+" : ""}${score(boost.amount)}`).join(", ");
  return {
    kind: "included",
    ...ranked,
    ...breakdown,
    ...budget,
    message: `${key} was included at rank ${rank} with score ${score(entry.finalScore)} (base ${score(entry.baseScore)}; ${boosts}).`,
  };
}

/** The copies of one evidence key that dedup merged into the copy it kept (the real `dedupeCandidates` picks it). */
export function mergedCopies(copies: readonly Candidate[], kept: Candidate): ExplainOutcome[] {
  return copies
    .filter((copy) => copy.portRank !== kept.portRank)
    .map((copy) => ({
      kind: "merged_by_dedup" as const,
      evidenceKey: copy.evidenceKey,
      mergedInto: kept.evidenceKey,
      portRank: copy.portRank + 1,
      ...(copy.score === undefined ? {} : { portScore: copy.score }),
      keptPortRank: kept.portRank + 1,
      message: `A copy of ${copy.evidenceKey} from ${copy.source} (port rank ${copy.portRank + 1}, score ${score(copy.score)}) was merged by dedup into evidence key ${kept.evidenceKey}, the copy at port rank ${kept.portRank + 1}.`,
    }));
}

/** Why an attempt was refused: its judged top score below the threshold, or an L0 filter that left the scope's best match out. */
function refusalCause(trace: RetrievalAttempt, referenceThreshold: number): string {
  // The retriever records the share when the filter rule refused the attempt (R9).
  const share = trace.leftOutShare;
  if (share !== undefined && (trace.topScore ?? 0) >= referenceThreshold) {
    return `its L0 filter kept only ${score(share)} of the best match of the caller's scope (an L0-filtered attempt must keep ${steeredFilterMinShare})`;
  }
  if (trace.answerability !== undefined) {
    return `the search judged its best match unlikely to answer (answerability ${score(trace.topScore)}, below rag.reference-threshold=${referenceThreshold})`;
  }
  return `its top score ${score(trace.topScore)} is below rag.reference-threshold=${referenceThreshold}`;
}
