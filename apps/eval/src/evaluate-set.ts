import { createKnowledgeRetriever, type KnowledgeRetriever } from "@lookup-knowledge/agent-tool";
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
): Promise<EvaluationRow> {
  const port = await openLocalSearchPort({
    directory: set.directory,
    embeddings: createOfflineEmbeddings(),
    ...(answerability ? { answerability } : {}),
  });
  // A test collection is ranked as documents: one block per document, 20 of them.
  const config: Record<string, number> =
    set.kind === "collection" ? { "rag.retrieve-k": 100, "rag.return-n": 20, "rag.max-chunks-per-document": 1 } : {};
  // The L0 index as the local knowledge base builds it: ordinary phrases of this base set no filter.
  const l0Index = set.entries ? createL0Index(set.entries, { isCommonTerm: commonTermTest(port) }) : undefined;
  const retriever = createKnowledgeRetriever({ searchPort: port, config, ...(l0Index ? { l0Index } : {}) });
  try {
    const answerable = testHalf(set.answerable);
    const runs = [];
    let found = 0;
    let paraphrasesFound = 0;
    for (const question of answerable) {
      const ranking = await rankWithRetriever(retriever, question.text);
      if (ranking.length > 0) {
        found += 1;
        if (question.paraphrase) paraphrasesFound += 1;
      }
      runs.push({ ranking, judgments: question.judgments });
    }
    const refused = async (questions: readonly EvaluationQuestion[]): Promise<[number, number]> => {
      let count = 0;
      for (const question of questions) if ((await rankWithRetriever(retriever, question.text)).length === 0) count += 1;
      return [count, questions.length];
    };
    const near = testHalf(set.outOfScope);
    const crossTest = testHalf(cross);
    const paraphrases = answerable.filter((question) => question.paraphrase).length;
    return {
      set: set.name,
      system,
      scores: scoreRankings(runs),
      found: [found, answerable.length],
      ...(paraphrases > 0 ? { paraphrases: [paraphrasesFound, paraphrases] as [number, number] } : {}),
      ...(near.length > 0 ? { near: await refused(near) } : {}),
      ...(crossTest.length > 0 ? { cross: await refused(crossTest) } : {}),
    };
  } finally {
    await retriever.close();
    await port.close();
  }
}

async function rankWithPort(port: KnowledgeSearchPort, query: string): Promise<string[]> {
  const hits = await port.search({ query, topK: 100 });
  return distinct(hits.map((hit) => String(hit.metadata.docId ?? hit.id)));
}

async function rankWithRetriever(retriever: KnowledgeRetriever, query: string): Promise<string[]> {
  const result = await retriever.lookup(query);
  return result.found ? distinct(result.evidenceBlocks.map((block) => block.docId ?? block.evidenceKey)) : [];
}

function distinct(ids: string[]): string[] {
  return [...new Set(ids)];
}
