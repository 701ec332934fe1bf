import type { EvaluationQuestion } from "./read-question-file.js";
import { sourceKey } from "./source-key.js";

/**
 * The `relevant` paths of the questions that name no document of the knowledge base (the
 * sources its last ingest recorded, compared by `sourceKey`): most often a typo, which would
 * quietly count as a miss. Nothing is reported when the sources are unknown (empty).
 */
export function unknownRelevantSources(
  questions: readonly EvaluationQuestion[],
  sources: readonly string[],
): Array<{ question: EvaluationQuestion; path: string }> {
  if (sources.length === 0) return [];
  const known = new Set(sources.map(sourceKey));
  return questions.flatMap((question) =>
    question.relevant.filter((path) => !known.has(sourceKey(path))).map((path) => ({ question, path })),
  );
}
