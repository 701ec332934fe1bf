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
    "near-domain refused",
    "cross refused",
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
    share(row.near),
    share(row.cross),
  ]);
  return renderTable(header, lines);
}

/**
 * The leave-one-knowledge-base-out summary: for each set, the retriever with a model fitted
 * without it, beside whole-file BM25, chunk BM25 and the hybrid port on the same files; then
 * the worst set on each measure (the headline).
 */
export function leaveOneOutTable(rows: readonly EvaluationRow[], system: string): string {
  const find = (set: string, name: string) => rows.find((row) => row.set === set && row.system === name);
  const sets = [...new Set(rows.filter((row) => row.system === system).map((row) => row.set))];
  const signed = (value: number) => `${value >= 0 ? "+" : ""}${value.toFixed(3)}`;
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
    "cross refused",
  ];
  const lines: string[][] = [];
  const worst = { ndcgWhole: Number.POSITIVE_INFINITY, ndcgHybrid: Number.POSITIVE_INFINITY, found: 2, near: 2, cross: 2, recall5: 2 };
  const worstSet: Record<keyof typeof worst, string> = { ndcgWhole: "", ndcgHybrid: "", found: "", near: "", cross: "", recall5: "" };
  const note = (key: keyof typeof worst, value: number, set: string) => {
    if (value < worst[key]) {
      worst[key] = value;
      worstSet[key] = set;
    }
  };
  for (const set of sets) {
    const row = find(set, system) as EvaluationRow;
    const whole = find(set, "BM25 whole files")?.scores.ndcg10 ?? 0;
    const chunks = find(set, "BM25 chunks (port, denseWeight 0)")?.scores.ndcg10 ?? 0;
    const hybrid = find(set, "hybrid (port, defaults)")?.scores.ndcg10 ?? 0;
    note("ndcgWhole", row.scores.ndcg10 - whole, set);
    note("ndcgHybrid", row.scores.ndcg10 - hybrid, set);
    note("recall5", row.scores.recall5, set);
    if (row.found) note("found", row.found[0] / Math.max(1, row.found[1]), set);
    if (row.near) note("near", row.near[0] / Math.max(1, row.near[1]), set);
    if (row.cross) note("cross", row.cross[0] / Math.max(1, row.cross[1]), set);
    lines.push([
      set,
      row.scores.ndcg10.toFixed(3),
      signed(row.scores.ndcg10 - whole),
      signed(row.scores.ndcg10 - chunks),
      signed(row.scores.ndcg10 - hybrid),
      row.scores.recall5.toFixed(3),
      share(row.found),
      share(row.paraphrases),
      share(row.near),
      share(row.cross),
    ]);
  }
  const percent = (value: number) => (value > 1 ? "-" : `${(100 * value).toFixed(0)}%`);
  const headline =
    `worst set: nDCG@10 - BM25 whole files ${signed(worst.ndcgWhole)} (${worstSet.ndcgWhole}), ` +
    `- hybrid port ${signed(worst.ndcgHybrid)} (${worstSet.ndcgHybrid}), R@5 ${worst.recall5.toFixed(3)} (${worstSet.recall5}), ` +
    `found ${percent(worst.found)} (${worstSet.found}), near-domain refused ${percent(worst.near)} (${worstSet.near}), ` +
    `cross refused ${percent(worst.cross)} (${worstSet.cross})`;
  return `${renderTable(header, lines)}\n${headline}`;
}
