import { createKnowledgeRetriever, type KnowledgeRetriever, type KnowledgeRetrieverOptions } from "@lookup-knowledge/agent-tool";
import { scoreRankings, type RankingScores } from "@lookup-knowledge/agent-tool/evaluation";
import { commonTermTest } from "@lookup-knowledge/agent-tool/local";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { createL0Index } from "@lookup-knowledge/l0-hints";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { openLocalSearchPort, type AnswerabilityModel, type LocalSearchPortOptions } from "@lookup-knowledge/search-port/local";
import type { EvaluationQuestion, EvaluationSet } from "./evaluation-sets.js";

/** One line of the eval table: a system's ranking scores on a set's test half, and the retriever's counts. */
export interface EvaluationRow {
  set: string;
  system: string;
  scores: RankingScores;
  /** [found, asked] of the answerable questions (the whole retriever only). */
  found?: [number, number];
  paraphrases?: [number, number];
  /** [refused, asked] of the near-domain and cross-collection questions. */
  near?: [number, number];
  cross?: [number, number];
  /**
   * [refused or returned with relevance low, asked]: what the model is told not to trust
   * (item 2: a near miss that comes back is marked low and carries the completeness note).
   */
  nearHeld?: [number, number];
  crossHeld?: [number, number];
  /** [found with relevance low, found]: answers the model is told may not answer. */
  foundLow?: [number, number];
}

type PortVariant = { system: string; whole?: boolean; options: Partial<LocalSearchPortOptions> };
/** The baselines beside the retriever: plain BM25 over whole files and over chunks, and the port's own rankings. */
const portVariants: PortVariant[] = [
  { system: "BM25 whole files", whole: true, options: { denseWeight: 0, answerability: false } },
  { system: "BM25 chunks (port, denseWeight 0)", options: { denseWeight: 0, answerability: false } },
  { system: "dense only (port, denseWeight 1)", options: { denseWeight: 1, answerability: false } },
  { system: "hybrid (port, defaults)", options: { answerability: false } },
];

/** The test half of a list of questions (ids ending in an even number). */
export function testHalf(questions: readonly EvaluationQuestion[]): EvaluationQuestion[] {
  return questions.filter((question) => question.split === "test");
}

/** The baseline rows of one set: each port variant's ranking of the answerable test half. */
export async function baselineRows(set: EvaluationSet): Promise<EvaluationRow[]> {
  const answerable = testHalf(set.answerable);
  const rows: EvaluationRow[] = [];
  for (const variant of portVariants) {
    const directory = variant.whole ? set.wholeFileDirectory : set.directory;
    const embeddings = variant.whole ? {} : { embeddings: createOfflineEmbeddings() };
    const port = await openLocalSearchPort({ directory, ...embeddings, ...variant.options });
    const runs = [];
    for (const question of answerable) runs.push({ ranking: await rankWithPort(port, question.text), judgments: question.judgments });
    rows.push({ set: set.name, system: variant.system, scores: scoreRankings(runs) });
    await port.close();
  }
  return rows;
}

/** A part of the retriever switched off, for the ablation (`pnpm --filter @lookup-knowledge/eval run ablation`). */
export interface RetrieverVariant {
  /** `rag.reference-threshold` set in the settings (unset: the model's own threshold). */
  referenceThreshold?: number;
  /** L0 hints as the local knowledge base builds them, without its common-term test, or none. */
  l0?: "shipped" | "without common-term test" | "off";
  /** Rerank weights over the defaults (`repeatedDocument: 0`: every block ranked by its own score). */
  rerankWeights?: KnowledgeRetrieverOptions["rerankWeights"];
}

/**
 * The whole retriever on one set's test half with an answerability model (the shipped one,
 * or one fitted without this set): rankings of the answerable questions (a refused question
 * is an empty ranking), and how many near-domain and cross-collection questions it refused.
 */
export async function retrieverRow(
  set: EvaluationSet,
  cross: readonly EvaluationQuestion[],
  system: string,
  answerability?: AnswerabilityModel,
  variant: RetrieverVariant = {},
): Promise<EvaluationRow> {
  const { retriever, close } = await openSetRetriever(set, answerability, variant);
  try {
    const answerable = testHalf(set.answerable);
    const runs = [];
    let found = 0;
    let paraphrasesFound = 0;
    let foundLow = 0;
    for (const question of answerable) {
      const { ranking, low } = await rankWithRetriever(retriever, question.text);
      if (ranking.length > 0) {
        found += 1;
        if (low) foundLow += 1;
        if (question.paraphrase) paraphrasesFound += 1;
      }
      runs.push({ ranking, judgments: question.judgments });
    }
    const unanswerable = async (questions: readonly EvaluationQuestion[]) => {
      let refused = 0;
      let held = 0;
      for (const question of questions) {
        const { ranking, low } = await rankWithRetriever(retriever, question.text);
        if (ranking.length === 0) refused += 1;
        if (ranking.length === 0 || low) held += 1;
      }
      return { refused: [refused, questions.length] as [number, number], held: [held, questions.length] as [number, number] };
    };
    const near = testHalf(set.outOfScope);
    const crossTest = testHalf(cross);
    const paraphrases = answerable.filter((question) => question.paraphrase).length;
    const nearCounts = near.length > 0 ? await unanswerable(near) : undefined;
    const crossCounts = crossTest.length > 0 ? await unanswerable(crossTest) : undefined;
    return {
      set: set.name,
      system,
      scores: scoreRankings(runs),
      found: [found, answerable.length],
      foundLow: [foundLow, found],
      ...(paraphrases > 0 ? { paraphrases: [paraphrasesFound, paraphrases] as [number, number] } : {}),
      ...(nearCounts ? { near: nearCounts.refused, nearHeld: nearCounts.held } : {}),
      ...(crossCounts ? { cross: crossCounts.refused, crossHeld: crossCounts.held } : {}),
    };
  } finally {
    await close();
  }
}

/**
 * The whole retriever over one set's index, as `pnpm eval` runs it: the given answerability
 * model (else the shipped one), the L0 index as the local knowledge base builds it, and a
 * test collection ranked as documents (one block per document, 20 of them).
 */
export async function openSetRetriever(
  set: EvaluationSet,
  answerability?: AnswerabilityModel,
  variant: RetrieverVariant = {},
): Promise<{ retriever: KnowledgeRetriever; close: () => Promise<void> }> {
  const port = await openLocalSearchPort({
    directory: set.directory,
    embeddings: createOfflineEmbeddings(),
    ...(answerability ? { answerability } : {}),
  });
  const config: Record<string, number> =
    set.kind === "collection" ? { "rag.retrieve-k": 100, "rag.return-n": 20, "rag.max-chunks-per-document": 1 } : {};
  if (variant.referenceThreshold !== undefined) config["rag.reference-threshold"] = variant.referenceThreshold;
  // The L0 index as the local knowledge base builds it: ordinary phrases of this base set no filter.
  const l0 = variant.l0 ?? "shipped";
  const l0Index =
    set.entries && l0 !== "off" ? createL0Index(set.entries, l0 === "shipped" ? { isCommonTerm: commonTermTest(port) } : {}) : undefined;
  const retriever = createKnowledgeRetriever({
    searchPort: port,
    config,
    ...(l0Index ? { l0Index } : {}),
    ...(variant.rerankWeights ? { rerankWeights: variant.rerankWeights } : {}),
  });
  return {
    retriever,
    close: async () => {
      await retriever.close();
      await port.close();
    },
  };
}

async function rankWithPort(port: KnowledgeSearchPort, query: string): Promise<string[]> {
  const hits = await port.search({ query, topK: 100 });
  return distinct(hits.map((hit) => String(hit.metadata.docId ?? hit.id)));
}

/** The documents a lookup returned (none when it found nothing), and whether it marked them relevance low. */
export async function rankWithRetriever(retriever: KnowledgeRetriever, query: string): Promise<{ ranking: string[]; low: boolean }> {
  const result = await retriever.lookup(query);
  if (!result.found) return { ranking: [], low: false };
  return {
    ranking: distinct(result.evidenceBlocks.map((block) => block.docId ?? block.evidenceKey)),
    low: result.relevanceLevel === "low",
  };
}

function distinct(ids: string[]): string[] {
  return [...new Set(ids)];
}
