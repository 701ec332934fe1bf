import type { SearchPortErrorCode } from "../../search-port-error-code.js";
import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { interactionPairs, type AnswerabilityModel, type InteractionName } from "./answerability-model.js";
import { fittedSignalNames, type AnswerabilitySignalName, type AnswerabilitySignals } from "./answerability-signals.js";

/** The smallest spread a signal is standardised by (signals are mostly shares in 0..1). */
const minimumScale = 0.05;

/** One labelled search: its best hit's signals, whether the question is answerable, and its weight in the fit. */
export interface AnswerabilityExample {
  signals: Readonly<AnswerabilitySignals>;
  answerable: boolean;
  /** Default 1. */
  weight?: number;
}

export interface FitAnswerabilityOptions {
  /** The signals the model may weigh; default `fittedSignalNames` (every signal but `terms`). */
  signals?: readonly AnswerabilitySignalName[];
  /**
   * Also weigh the product of every two of those signals (`AnswerabilityModel.interactions`);
   * default false. It needs many examples: with 13 signals it fits 91 weights.
   */
  interactions?: boolean;
  /** L2 penalty on the standardised weights (not the bias); default 1. */
  penalty?: number;
  /** The version the fitted model carries. */
  version: number;
  fittedOn?: string;
}

/**
 * Fits the logistic answerability model by weighted, L2-penalised maximum likelihood
 * (Newton's method on standardised signals, at most 50 steps). Deterministic: the same
 * examples give the same model. Refuses fewer than two examples of either label.
 */
export function fitAnswerabilityModel(examples: readonly AnswerabilityExample[], options: FitAnswerabilityOptions): AnswerabilityModel {
  const names = [...(options.signals ?? fittedSignalNames)];
  const penalty = options.penalty ?? 1;
  checkExamples(examples, names);
  // The model's inputs: each signal, then each product of two when asked for.
  const pairs = options.interactions === true ? interactionPairs(names) : [];
  const features: Array<(signals: Readonly<AnswerabilitySignals>) => number> = [
    ...names.map((name) => (signals: Readonly<AnswerabilitySignals>) => signals[name]),
    ...pairs.map(
      ([left, right]) =>
        (signals: Readonly<AnswerabilitySignals>) =>
          signals[left] * signals[right],
    ),
  ];
  const values = examples.map((example) => features.map((feature) => feature(example.signals)));
  const weights = examples.map((example) => example.weight ?? 1);
  const { rows, means, scales } = standardise(values, weights);
  const labels = examples.map((example) => (example.answerable ? 1 : 0));
  const beta = newtonFit(rows, weights, labels, penalty);
  // Back to raw signals: z = b0 + sum(b_i * (x_i - mean_i) / scale_i).
  const raw: Partial<Record<AnswerabilitySignalName, number>> = {};
  const products: Partial<Record<InteractionName, number>> = {};
  let bias = beta[0] as number;
  features.forEach((_, column) => {
    const weight = (beta[column + 1] as number) / (scales[column] as number);
    if (column < names.length) raw[names[column] as AnswerabilitySignalName] = round(weight);
    else {
      const [left, right] = pairs[column - names.length] as [AnswerabilitySignalName, AnswerabilitySignalName];
      products[`${left}*${right}`] = round(weight);
    }
    bias -= weight * (means[column] as number);
  });
  if (!Number.isFinite(bias) || [...Object.values(raw), ...Object.values(products)].some((weight) => !Number.isFinite(weight))) {
    throw new LookupKnowledgeError<SearchPortErrorCode>({
      code: "fit_failed",
      message: "the answerability fit did not converge to finite parameters",
    });
  }
  return {
    kind: "logistic",
    version: options.version,
    bias: round(bias),
    weights: raw,
    ...(pairs.length > 0 ? { interactions: products } : {}),
    ...(options.fittedOn === undefined ? {} : { fittedOn: options.fittedOn }),
  };
}

/** Refuses fewer than two examples of either label, a weight that is not a finite number above 0, and a signal of `names` that is not a finite number. */
function checkExamples(examples: readonly AnswerabilityExample[], names: readonly AnswerabilitySignalName[]): void {
  const positives = examples.filter((example) => example.answerable).length;
  if (positives < 2 || examples.length - positives < 2) {
    throw new LookupKnowledgeError<SearchPortErrorCode>({
      code: "invalid_argument",
      message: `fitting the answerability model needs at least 2 answerable and 2 unanswerable examples, got ${positives} and ${examples.length - positives}`,
    });
  }
  examples.forEach((example, index) => {
    const weight = example.weight ?? 1;
    if (!Number.isFinite(weight) || weight <= 0) {
      throw new LookupKnowledgeError<SearchPortErrorCode>({
        code: "invalid_argument",
        message: `example ${index}: weight ${String(weight)} is not a finite number above 0`,
      });
    }
    for (const name of names) {
      const value = example.signals?.[name];
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw new LookupKnowledgeError<SearchPortErrorCode>({
          code: "invalid_argument",
          message: `example ${index}: signal ${name} is ${String(value)}, not a finite number`,
        });
      }
    }
  });
}

/**
 * The examples' feature `values` standardised by their weighted means and spreads, each row
 * led by a 1 (the bias). Standardised so the penalty treats every signal alike; a signal
 * that barely varies in the examples is divided by at least `minimumScale`, so the penalty
 * keeps its weight small instead of letting it grow huge on noise.
 */
function standardise(values: number[][], weights: number[]): { rows: number[][]; means: number[]; scales: number[] } {
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const columns = (values[0] as number[]).length;
  const means = Array.from(
    { length: columns },
    (_, column) => values.reduce((sum, row, index) => sum + (weights[index] as number) * (row[column] as number), 0) / totalWeight,
  );
  const scales = Array.from({ length: columns }, (_, column) => {
    const variance =
      values.reduce((sum, row, index) => sum + (weights[index] as number) * ((row[column] as number) - (means[column] as number)) ** 2, 0) /
      totalWeight;
    return Math.max(Math.sqrt(variance), minimumScale);
  });
  const rows = values.map((row) => [1, ...row.map((value, column) => (value - (means[column] as number)) / (scales[column] as number))]);
  return { rows, means, scales };
}

/**
 * The parameters (bias first) that maximise the weighted, penalised likelihood of `labels`
 * (1 answerable, 0 not) given the standardised `rows`: Newton's method from zero, at most 50
 * steps, until no parameter moves by 1e-9. The bias is not penalised.
 */
function newtonFit(rows: number[][], weights: number[], labels: number[], penalty: number): number[] {
  const size = (rows[0] as number[]).length;
  let beta = new Array<number>(size).fill(0);
  for (let step = 0; step < 50; step += 1) {
    const gradient = new Array<number>(size).fill(0);
    const hessian = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    rows.forEach((row, index) => {
      const probability = sigmoid(dot(beta, row));
      const weight = weights[index] as number;
      const residual = (labels[index] as number) - probability;
      const curvature = weight * probability * (1 - probability);
      for (let i = 0; i < size; i += 1) {
        gradient[i] = (gradient[i] as number) + weight * residual * (row[i] as number);
        const hessianRow = hessian[i] as number[];
        for (let j = 0; j < size; j += 1) hessianRow[j] = (hessianRow[j] as number) + curvature * (row[i] as number) * (row[j] as number);
      }
    });
    for (let i = 1; i < size; i += 1) {
      gradient[i] = (gradient[i] as number) - penalty * (beta[i] as number);
      (hessian[i] as number[])[i] = ((hessian[i] as number[])[i] as number) + penalty;
    }
    const delta = solve(hessian, gradient);
    beta = beta.map((value, index) => value + (delta[index] as number));
    if (Math.max(...delta.map(Math.abs)) < 1e-9) break;
  }
  return beta;
}

function sigmoid(z: number): number {
  return 1 / (1 + Math.exp(-z));
}

function dot(left: readonly number[], right: readonly number[]): number {
  let sum = 0;
  for (let index = 0; index < left.length; index += 1) sum += (left[index] as number) * (right[index] as number);
  return sum;
}

/** Solves `matrix * x = vector` by Gaussian elimination with partial pivoting (the matrix is small and positive definite). */
function solve(matrix: number[][], vector: number[]): number[] {
  const size = vector.length;
  const a = matrix.map((row, index) => [...row, vector[index] as number]);
  for (let column = 0; column < size; column += 1) {
    let pivot = column;
    for (let row = column + 1; row < size; row += 1)
      if (Math.abs((a[row] as number[])[column] as number) > Math.abs((a[pivot] as number[])[column] as number)) pivot = row;
    [a[column], a[pivot]] = [a[pivot] as number[], a[column] as number[]];
    const pivotRow = a[column] as number[];
    const divisor = pivotRow[column] as number;
    if (Math.abs(divisor) < 1e-12) continue;
    for (let row = column + 1; row < size; row += 1) {
      const current = a[row] as number[];
      const factor = (current[column] as number) / divisor;
      for (let k = column; k <= size; k += 1) current[k] = (current[k] as number) - factor * (pivotRow[k] as number);
    }
  }
  const x = new Array<number>(size).fill(0);
  for (let row = size - 1; row >= 0; row -= 1) {
    const current = a[row] as number[];
    let sum = current[size] as number;
    for (let k = row + 1; k < size; k += 1) sum -= (current[k] as number) * (x[k] as number);
    const divisor = current[row] as number;
    x[row] = Math.abs(divisor) < 1e-12 ? 0 : sum / divisor;
  }
  return x;
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
