import type { DenseWeights } from "@lookup-knowledge/search-port/local";
import { leaveOneOutFusion, chooseFusionWeights, type FusionMeasure } from "./choose-fusion-weights.js";
import type { LeftOutChoice } from "./choose-on-development.js";
import type { EvaluationRow } from "./evaluate-set.js";

/** `found/asked (percent)`, or an empty cell. */
export function share(counts: readonly [number, number] | undefined): string {
  if (counts === undefined) return "";
  const [part, whole] = counts;
  return `${part}/${whole} (${((100 * part) / Math.max(1, whole)).toFixed(0)}%)`;
}

/** Renders rows of cells under a header, columns padded to their widest cell. */
export function renderTable(header: readonly string[], lines: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((title, index) => Math.max(title.length, ...lines.map((line) => line[index]?.length ?? 0)));
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, index) => cell.padEnd(widths[index] ?? 0))
      .join("  ")
      .trimEnd();
  return [render(header), widths.map((width) => "-".repeat(width)).join("  "), ...lines.map(render)].join("\n");
}

/** Every system's figures on every set's test half. */
export function rowsTable(rows: readonly EvaluationRow[]): string {
  const header = [
    "set",
    "system",
    "nDCG@10",
    "R@5",
    "R@20",
    "MRR@10",
    "answerable found",
    "paraphrases found",
    "found with relevance low",
    "near-domain refused",
    "near refused or low",
    "cross refused",
    "cross refused or low",
  ];
  const lines = rows.map((row) => [
    row.set,
    row.system,
    row.scores.ndcg10.toFixed(3),
    row.scores.recall5.toFixed(3),
    row.scores.recall20.toFixed(3),
    row.scores.mrr10.toFixed(3),
    share(row.found),
    share(row.paraphrases),
    share(row.foundLow),
    share(row.near),
    share(row.nearHeld),
    share(row.cross),
    share(row.crossHeld),
  ]);
  return renderTable(header, lines);
}

/** The worst set on each leave-one-out measure: its value and the set. */
export interface WorstSets {
  value: Record<WorstMeasure, number>;
  set: Record<WorstMeasure, string>;
}
type WorstMeasure = "ndcgWhole" | "ndcgHybrid" | "recall5" | "found" | "near" | "nearHeld" | "cross" | "crossHeld";

const signed = (value: number) => `${value >= 0 ? "+" : ""}${value.toFixed(3)}`;
const percent = (value: number) => (value > 1 ? "-" : `${(100 * value).toFixed(0)}%`);

/** For each measure of the leave-one-out table, the set where `system` does worst (nDCG beside the baselines on the same files). */
export function worstSets(rows: readonly EvaluationRow[], system: string): WorstSets {
  const find = (set: string, name: string) => rows.find((row) => row.set === set && row.system === name);
  const value: Record<WorstMeasure, number> = {
    ndcgWhole: Number.POSITIVE_INFINITY,
    ndcgHybrid: Number.POSITIVE_INFINITY,
    recall5: 2,
    found: 2,
    near: 2,
    nearHeld: 2,
    cross: 2,
    crossHeld: 2,
  };
  const set = Object.fromEntries(Object.keys(value).map((key) => [key, ""])) as Record<WorstMeasure, string>;
  const note = (key: WorstMeasure, measured: number, name: string) => {
    if (measured < value[key]) {
      value[key] = measured;
      set[key] = name;
    }
  };
  const ratio = (counts: readonly [number, number] | undefined) => (counts ? counts[0] / Math.max(1, counts[1]) : undefined);
  for (const row of rows.filter((candidate) => candidate.system === system)) {
    note("ndcgWhole", row.scores.ndcg10 - (find(row.set, "BM25 whole files")?.scores.ndcg10 ?? 0), row.set);
    note("ndcgHybrid", row.scores.ndcg10 - (find(row.set, "hybrid (port, defaults)")?.scores.ndcg10 ?? 0), row.set);
    note("recall5", row.scores.recall5, row.set);
    for (const [key, counts] of [
      ["found", row.found],
      ["near", row.near],
      ["nearHeld", row.nearHeld],
      ["cross", row.cross],
      ["crossHeld", row.crossHeld],
    ] as const) {
      const measured = ratio(counts);
      if (measured !== undefined) note(key, measured, row.set);
    }
  }
  return { value, set };
}

/**
 * The leave-one-knowledge-base-out summary: for each set, the retriever with a model fitted
 * without it, beside whole-file BM25, chunk BM25 and the hybrid port on the same files; then
 * the worst set on each measure (the headline).
 */
export function leaveOneOutTable(rows: readonly EvaluationRow[], system: string): string {
  const find = (set: string, name: string) => rows.find((row) => row.set === set && row.system === name);
  const sets = [...new Set(rows.filter((row) => row.system === system).map((row) => row.set))];
  const header = [
    "left out",
    "nDCG@10",
    "- BM25 whole files",
    "- BM25 chunks",
    "- hybrid port",
    "R@5",
    "found",
    "paraphrases",
    "near refused",
    "near refused or low",
    "cross refused",
    "cross refused or low",
  ];
  const lines = sets.map((set) => {
    const row = find(set, system) as EvaluationRow;
    const baseline = (name: string) => signed(row.scores.ndcg10 - (find(set, name)?.scores.ndcg10 ?? 0));
    return [
      set,
      row.scores.ndcg10.toFixed(3),
      baseline("BM25 whole files"),
      baseline("BM25 chunks (port, denseWeight 0)"),
      baseline("hybrid (port, defaults)"),
      row.scores.recall5.toFixed(3),
      share(row.found),
      share(row.paraphrases),
      share(row.near),
      share(row.nearHeld),
      share(row.cross),
      share(row.crossHeld),
    ];
  });
  const { value: worst, set: worstSet } = worstSets(rows, system);
  const headline =
    `worst set: nDCG@10 - BM25 whole files ${signed(worst.ndcgWhole)} (${worstSet.ndcgWhole}), ` +
    `- hybrid port ${signed(worst.ndcgHybrid)} (${worstSet.ndcgHybrid}), R@5 ${worst.recall5.toFixed(3)} (${worstSet.recall5}), ` +
    `found ${percent(worst.found)} (${worstSet.found}), near-domain refused ${percent(worst.near)} (${worstSet.near}), ` +
    `near refused or low ${percent(worst.nearHeld)} (${worstSet.nearHeld}), ` +
    `cross refused ${percent(worst.cross)} (${worstSet.cross}), cross refused or low ${percent(worst.crossHeld)} (${worstSet.crossHeld})`;
  return `${renderTable(header, lines)}\n${headline}`;
}

/** One line per variant of the retriever: the worst left-out set on each measure. */
export function ablationTable(rows: readonly EvaluationRow[], variants: readonly string[]): string {
  const header = [
    "variant",
    "- BM25 whole files",
    "- hybrid port",
    "R@5",
    "found",
    "near refused",
    "near refused or low",
    "cross refused",
    "cross refused or low",
  ];
  const lines = variants.map((variant) => {
    const { value } = worstSets(rows, variant);
    return [
      variant,
      signed(value.ndcgWhole),
      signed(value.ndcgHybrid),
      value.recall5.toFixed(3),
      percent(value.found),
      percent(value.near),
      percent(value.nearHeld),
      percent(value.cross),
      percent(value.crossHeld),
    ];
  });
  return renderTable(header, lines);
}

const weightPair = (weights: DenseWeights) => `${weights.denseWeight.toFixed(2)} / ${weights.cjkDenseWeight.toFixed(2)}`;

/** What the columns of a leave-one-out choice are called: the value's, the shipped one's and the baseline's. */
export interface ChoiceLabels<T> {
  name: (value: T) => string;
  chosen: string;
  current: T;
  baseline: string;
}

/** A leave-one-out choice of one parameter, worst change first: the value chosen without each set, its test score, the shipped value's and the baseline's. */
export function choiceTable<T>(rows: readonly LeftOutChoice<T>[], labels: ChoiceLabels<T>): string {
  const sorted = [...rows].sort((a, b) => a.test - a.atCurrent - (b.test - b.atCurrent));
  return renderTable(
    ["left out", labels.chosen, "test nDCG@10", `at ${labels.name(labels.current)}`, "change", labels.baseline, `- ${labels.baseline}`],
    sorted.map((row) => [
      row.set,
      labels.name(row.chosen),
      row.test.toFixed(3),
      row.atCurrent.toFixed(3),
      signed(row.test - row.atCurrent),
      row.atBaseline.toFixed(3),
      signed(row.test - row.atBaseline),
    ]),
  );
}

/** The leave-one-out table of the dense weights, worst change first, and the weights chosen on every set. */
export function fusionTable(measures: readonly FusionMeasure[], current: DenseWeights): string {
  const table = choiceTable(leaveOneOutFusion(measures, current), {
    name: weightPair,
    chosen: "weights chosen (other / CJK)",
    current,
    baseline: "BM25 chunks",
  });
  const all = chooseFusionWeights(measures);
  return `${table}\nchosen on every set's development half (other / CJK): ${all ? weightPair(all) : "none"}`;
}
