import {
  evaluateRetriever,
  fitThresholds,
  parseQuestionFile,
  QuestionFileError,
  thresholdTradeOff,
  type RetrieverEvaluation,
  type ThresholdRow,
} from "@lookup-knowledge/agent-tool/evaluation";
import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { InspectorRequestError } from "./inspector-request-error.js";
import { playgroundRetriever } from "./playground-api.js";
import { readConfig } from "./read-config.js";

/** The most questions one calibration request may ask (each is a lookup, twice). */
export const maxCalibrationQuestions = 500;

/** What the Calibration view draws: each question's gate score, the trade-off, and the `eval` figures. */
export interface CalibrationView {
  referenceThreshold: number;
  /** The highest threshold at which each question would have found evidence (null: at none). */
  samples: Array<{ id: string; answerable: boolean; gateScore: number | null; found: boolean }>;
  /** Answerable found and out-of-scope refused at each threshold from 0.01 to 0.99. */
  tradeOff: ThresholdRow[];
  /** The row of the configured threshold. */
  atThreshold: ThresholdRow;
  /** nDCG@10, R@5, MRR@10, answerable found and out-of-scope refused, as `lookup-knowledge eval` gives them. */
  evaluation: Omit<RetrieverEvaluation, "questions">;
}

/**
 * `POST /api/calibration` with `{ "questions": "<JSON Lines>", "config"?: {...} }`: the
 * question file is checked as `lookup-knowledge eval` checks it (`parseQuestionFile`, in
 * memory: nothing is written to disk), then asked twice on
 * playground retrievers (never traced): at threshold 1, where every retry runs and each
 * question's gate score is exact, and at the configured threshold for the `eval` figures.
 */
export async function runCalibration(
  knowledgeBase: KnowledgeBase,
  input: { questions?: unknown; config?: unknown },
): Promise<CalibrationView> {
  if (typeof input.questions !== "string" || input.questions.trim() === "") {
    throw invalid('questions must be the text of a question file: JSON Lines, one {"id", "query", "relevant": [...]} a line.');
  }
  const questions = parseQuestions(input.questions);
  if (questions.length > maxCalibrationQuestions) {
    throw invalid(`The question file holds ${questions.length} questions; the inspector asks at most ${maxCalibrationQuestions}.`);
  }
  const config = readConfig(knowledgeBase.retriever.config, input.config);
  const gate = await evaluateRetriever(playgroundRetriever(knowledgeBase, { ...config, referenceThreshold: 1 }), questions);
  const { questions: outcomes, ...evaluation } = await evaluateRetriever(playgroundRetriever(knowledgeBase, config), questions);
  const tradeOff = thresholdTradeOff(gate.questions, fitThresholds);
  const [atThreshold] = thresholdTradeOff(gate.questions, [config.referenceThreshold]);
  return {
    referenceThreshold: config.referenceThreshold,
    samples: gate.questions.map((outcome, index) => ({
      id: outcome.id,
      answerable: outcome.answerable,
      gateScore: outcome.gateScore ?? null,
      found: outcomes[index]?.found ?? false,
    })),
    tradeOff,
    atThreshold: atThreshold as ThresholdRow,
    evaluation,
  };
}

/** The posted text, checked as `lookup-knowledge eval` checks a question file; a bad line is a 400 naming it. */
function parseQuestions(text: string) {
  try {
    return parseQuestionFile(text, "the question file");
  } catch (error) {
    if (QuestionFileError.isInstance(error)) throw invalid(error.message);
    throw error;
  }
}

function invalid(message: string): InspectorRequestError {
  return new InspectorRequestError({ status: 400, code: "invalid_request", message });
}
