import { neutralAnswerabilityModel } from "@lookup-knowledge/agent-tool/evaluation";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { openLocalSearchPort, type AnswerabilitySignals } from "@lookup-knowledge/search-port/local";
import { crossCollectionPairs, type EvaluationQuestion, type EvaluationSet } from "./evaluation-sets.js";
import type { Split } from "./split.js";

/** What a question asked of a set is: answerable there, a hand-written near miss, or another set's question. */
export type SampleGroup = "answerable" | "near" | "cross";

/** The answerability signals of one question's unfiltered search, with what the right answer was. */
export interface AnswerabilitySample {
  /** The set whose index was searched. */
  set: string;
  /** The set the question came from (differs for `cross`). */
  asked: string;
  group: SampleGroup;
  id: string;
  split: Split;
  /** Absent when the search found no hit at all (the question is refused whatever the model). */
  signals?: AnswerabilitySignals;
  /** Whether the best hit is a relevant document (answerable questions only). */
  topRelevant: boolean;
}

/**
 * Searches every set's index with its answerable and near-domain questions, and with the
 * questions of the sets it is paired with (`crossCollectionPairs`), and keeps the signals
 * of each search's best hit.
 */
export async function collectAnswerabilitySamples(sets: readonly EvaluationSet[]): Promise<AnswerabilitySample[]> {
  const samples: AnswerabilitySample[] = [];
  const byName = new Map(sets.map((set) => [set.name, set]));
  for (const set of sets) {
    const port = await openLocalSearchPort({
      directory: set.directory,
      embeddings: createOfflineEmbeddings(),
      minScore: 0,
      answerability: neutralAnswerabilityModel,
    });
    try {
      const ask = async (questions: readonly EvaluationQuestion[], group: SampleGroup, asked: string) => {
        for (const question of questions) {
          const [best] = await port.search({ query: question.text, topK: 20 });
          const docId = best === undefined ? undefined : String(best.metadata.docId ?? best.id);
          samples.push({
            set: set.name,
            asked,
            group,
            id: question.id,
            split: question.split,
            ...(best?.answerability ? { signals: best.answerability.signals as AnswerabilitySignals } : {}),
            topRelevant: group === "answerable" && docId !== undefined && (question.judgments.get(docId) ?? 0) > 0,
          });
        }
      };
      await ask(set.answerable, "answerable", set.name);
      await ask(set.outOfScope, "near", set.name);
      for (const [asked, of] of crossCollectionPairs) {
        const source = byName.get(asked);
        if (of === set.name && source !== undefined) await ask(source.answerable, "cross", asked);
      }
    } finally {
      await port.close();
    }
  }
  return samples;
}
