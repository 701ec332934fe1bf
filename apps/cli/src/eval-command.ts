import { resolve } from "node:path";
import {
  describeCalibration,
  evaluateRetriever,
  readQuestionFile,
  unknownRelevantSources,
  type CalibrationState,
  type EvaluationQuestion,
  type QuestionOutcome,
  type RetrieverEvaluation,
} from "@lookup-knowledge/agent-tool/evaluation";
import { openKnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import type { CliConfig } from "./cli-config.js";
import { printable } from "@lookup-knowledge/agent-tool/format";
import { terminalJson } from "./terminal-json.js";

/** How many questions each list of misses names. */
const listed = 10;

/**
 * `lookup-knowledge eval --questions FILE [--json]`: asks every question of the file of the
 * whole retriever on the configured store (with its calibration), and returns the figures:
 * nDCG@10, R@5, MRR@10, answerable found and out-of-scope refused; `--json` adds every
 * question's outcome. Lookups are not traced.
 */
export async function runEvalCommand(
  config: CliConfig,
  options: { questions: string; json: boolean; warn: (message: string) => void },
): Promise<string> {
  const file = resolve(options.questions);
  const questions = await readQuestionFile(file);
  const knowledgeBase = await openKnowledgeBase({
    dataDirectory: config.dataDirectory,
    store: config.store,
    config: config.ragKeys,
    onWarning: options.warn,
  });
  let evaluation: RetrieverEvaluation;
  try {
    warnUnknownRelevant(file, questions, knowledgeBase.sources, options.warn);
    evaluation = await evaluateRetriever(knowledgeBase.retriever, questions);
  } finally {
    await knowledgeBase.close();
  }
  const calibration = knowledgeBase.calibration;
  if (options.json) {
    return terminalJson({
      questionFile: file,
      store: knowledgeBase.store.description,
      dataDirectory: config.dataDirectory,
      referenceThreshold: evaluation.referenceThreshold,
      calibration: calibration ? calibrationJson(calibration) : null,
      scores: evaluation.scores,
      answerable: evaluation.answerable,
      outOfScope: evaluation.outOfScope,
      questions: evaluation.questions.map(({ gateScore: _gate, ...outcome }) => ({
        ...outcome,
        relevantFound: outcome.firstRelevantRank !== null,
      })),
    });
  }
  return formatEvaluation(evaluation, { file, store: knowledgeBase.store.description, ...(calibration ? { calibration } : {}) });
}

/** Warns, once a path, about `relevant` paths that name no document of the knowledge base. */
export function warnUnknownRelevant(
  file: string,
  questions: readonly EvaluationQuestion[],
  sources: readonly string[],
  warn: (message: string) => void,
): void {
  for (const { question, path } of unknownRelevantSources(questions, sources)) {
    warn(
      `${file} line ${question.line}: relevant ${JSON.stringify(path)} is not a document of this knowledge base, so it can never be found.`,
    );
  }
}

/** One line about the calibration lookups were made with. */
export function describeCalibrationState(state: CalibrationState | undefined): string {
  if (!state) return "none (the defaults)";
  const { calibration } = state;
  const fitted = `${describeCalibration(calibration)}, fitted ${calibration.fittedAt.slice(0, 16).replace("T", " ")} on ${calibration.questions.file} (${calibration.questions.answerable} answerable, ${calibration.questions.outOfScope} out of scope)`;
  return state.status === "used" ? fitted : `${fitted}; not used: ${state.note ?? state.status}`;
}

function calibrationJson(state: CalibrationState) {
  return {
    file: state.file ?? null,
    status: state.status,
    fitted: describeCalibration(state.calibration),
    ...(state.note ? { note: state.note } : {}),
    fittedAt: state.calibration.fittedAt,
  };
}

function formatEvaluation(
  evaluation: RetrieverEvaluation,
  context: { file: string; store: string; calibration?: CalibrationState },
): string {
  const { scores, answerable, outOfScope } = evaluation;
  const lines = [
    `Evaluated ${evaluation.questions.length} questions of ${context.file} on the ${context.store}`,
    `  calibration           ${describeCalibrationState(context.calibration)}`,
    `  reference threshold   ${evaluation.referenceThreshold ?? "-"}`,
    `  nDCG@10 ${scores.ndcg10.toFixed(3)}   R@5 ${scores.recall5.toFixed(3)}   MRR@10 ${scores.mrr10.toFixed(3)}   (over ${answerable.asked} answerable questions)`,
    `  answerable found      ${share(answerable.found, answerable.asked)}`,
    `  out-of-scope refused  ${share(outOfScope.refused, outOfScope.asked)}`,
  ];
  const missed = (title: string, outcomes: QuestionOutcome[]) => {
    if (outcomes.length === 0) return;
    lines.push(`  ${title}:`);
    for (const outcome of outcomes.slice(0, listed)) {
      const top = outcome.topScore === undefined ? "no evidence" : `top score ${outcome.topScore.toFixed(3)}`;
      lines.push(`    ${outcome.id}  ${cut(outcome.query, 70)}  (${top})`);
    }
    if (outcomes.length > listed) lines.push(`    ... and ${outcomes.length - listed} more (--json lists every question)`);
  };
  missed(
    "answerable, not found",
    evaluation.questions.filter((outcome) => outcome.answerable && !outcome.found),
  );
  missed(
    "found, but no relevant source in the evidence",
    evaluation.questions.filter((outcome) => outcome.answerable && outcome.found && outcome.firstRelevantRank === null),
  );
  missed(
    "out of scope, not refused",
    evaluation.questions.filter((outcome) => !outcome.answerable && outcome.found),
  );
  // Question ids and queries, file and store names: no control character reaches the terminal.
  return lines.map(printable).join("\n");
}

function share(part: number, whole: number): string {
  return whole === 0 ? "- (no such questions)" : `${part}/${whole} (${Math.round((100 * part) / whole)}%)`;
}

function cut(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > length ? `${flat.slice(0, length - 1)}…` : flat;
}
