import type { Answerability, LookupResult, RetrievalAttempt } from "@lookup-knowledge/core";
import type { EvaluationQuestion } from "./read-question-file.js";
import { mrrAt, ndcgAt, recallAt } from "./ranking-metrics.js";
import { sourceKey } from "./source-key.js";

/** What the retriever made of one question. */
export interface QuestionOutcome {
  id: string;
  query: string;
  /** Whether the question has relevant documents (else it is out of scope and should be refused). */
  answerable: boolean;
  found: boolean;
  /** The top evidence score of the attempt the result came from, or the best any attempt reached when nothing was found. */
  topScore?: number;
  /** The port's judgement of that attempt's best hit (the local port's signals and model), when it gave one. */
  answerability?: Answerability;
  /** The distinct sources of the evidence, in rank order (none when nothing was found). */
  sources: string[];
  /** 1-based rank of the first relevant source among `sources`, or null when none of them is relevant. */
  firstRelevantRank: number | null;
  /**
   * The highest threshold at which this lookup would have found evidence: the best top
   * score of the attempts that had evidence (1 when their blocks have no score), or
   * undefined when no attempt had evidence. Exact for a lookup made at threshold 1, where
   * the retry always runs (`thresholdTradeOff`).
   */
  gateScore?: number;
}

/** The retriever's figures over a question file. */
export interface RetrieverEvaluation {
  /** Means over the answerable questions; a question with found=false ranks nothing. */
  scores: { ndcg10: number; recall5: number; mrr10: number };
  answerable: { asked: number; found: number };
  outOfScope: { asked: number; refused: number };
  /** The `rag.reference-threshold` the lookups were judged at (from their traces). */
  referenceThreshold?: number;
  questions: QuestionOutcome[];
}

/** Anything that looks questions up the way `KnowledgeRetriever` does. */
export interface LookupRunner {
  lookup(query: string): Promise<LookupResult>;
}

/**
 * Asks every question of the retriever, in order, and scores the answers: nDCG@10, R@5 and
 * MRR@10 of the evidence sources against each answerable question's `relevant` documents
 * (compared by `sourceKey`), answerable questions found, out-of-scope ones refused.
 */
export async function evaluateRetriever(
  retriever: LookupRunner,
  questions: readonly EvaluationQuestion[],
  options: { onQuestion?: (outcome: QuestionOutcome, index: number) => void } = {},
): Promise<RetrieverEvaluation> {
  const outcomes: QuestionOutcome[] = [];
  let referenceThreshold: number | undefined;
  for (const [index, question] of questions.entries()) {
    const result = await retriever.lookup(question.query);
    referenceThreshold ??= result.retrievalTrace.referenceThreshold;
    const outcome = judgeOutcome(question, result);
    outcomes.push(outcome);
    options.onQuestion?.(outcome, index);
  }
  return { ...summarizeOutcomes(outcomes, questions), ...(referenceThreshold === undefined ? {} : { referenceThreshold }) };
}

/** The figures of outcomes already judged (the same questions, in order). */
export function summarizeOutcomes(outcomes: readonly QuestionOutcome[], questions: readonly EvaluationQuestion[]): RetrieverEvaluation {
  const total = { ndcg10: 0, recall5: 0, mrr10: 0 };
  let answerable = 0;
  let found = 0;
  let outOfScope = 0;
  let refused = 0;
  outcomes.forEach((outcome, index) => {
    const question = questions[index] as EvaluationQuestion;
    if (!outcome.answerable) {
      outOfScope += 1;
      if (!outcome.found) refused += 1;
      return;
    }
    answerable += 1;
    if (outcome.found) found += 1;
    const judgments = new Map(question.relevant.map((path) => [sourceKey(path), 1]));
    const ranking = outcome.sources.map(sourceKey);
    total.ndcg10 += ndcgAt(ranking, judgments, 10);
    total.recall5 += recallAt(ranking, judgments, 5);
    total.mrr10 += mrrAt(ranking, judgments, 10);
  });
  const count = Math.max(1, answerable);
  return {
    scores: { ndcg10: total.ndcg10 / count, recall5: total.recall5 / count, mrr10: total.mrr10 / count },
    answerable: { asked: answerable, found },
    outOfScope: { asked: outOfScope, refused },
    questions: [...outcomes],
  };
}

function judgeOutcome(question: EvaluationQuestion, result: LookupResult): QuestionOutcome {
  const attempts = result.retrievalTrace.attempts;
  const usable = attempts.find((attempt) => attempt.outcome === "usable");
  const best = usable ?? bestAttempt(attempts);
  const answerability = usable?.answerability ?? [...attempts].reverse().find((attempt) => attempt.answerability)?.answerability;
  const sources = result.found ? [...new Set(result.evidenceBlocks.map((block) => block.source))] : [];
  const relevant = new Set(question.relevant.map(sourceKey));
  const rank = sources.findIndex((source) => relevant.has(sourceKey(source)));
  const gateScore = gateScoreOf(attempts);
  return {
    id: question.id,
    query: question.query,
    answerable: question.relevant.length > 0,
    found: result.found,
    ...(best?.topScore === undefined ? {} : { topScore: best.topScore }),
    ...(answerability ? { answerability } : {}),
    sources,
    firstRelevantRank: rank < 0 ? null : rank + 1,
    ...(gateScore === undefined ? {} : { gateScore }),
  };
}

function bestAttempt(attempts: readonly RetrievalAttempt[]): RetrievalAttempt | undefined {
  let best: RetrievalAttempt | undefined;
  for (const attempt of attempts)
    if (attempt.topScore !== undefined && (best?.topScore === undefined || attempt.topScore > best.topScore)) best = attempt;
  return best ?? attempts[attempts.length - 1];
}

function gateScoreOf(attempts: readonly RetrievalAttempt[]): number | undefined {
  let gate: number | undefined;
  for (const attempt of attempts) {
    if (attempt.evidenceCount === 0) continue;
    // An L0-filtered attempt that left the scope's best match out is refused whatever its score (R9).
    if (attempt.leftOutShare !== undefined) continue;
    const score = attempt.topScore ?? 1;
    if (gate === undefined || score > gate) gate = score;
  }
  return gate;
}
