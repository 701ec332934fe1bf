// What the ingest benches report of repeated runs: the median, and the median with its range.

/** The median of `values` (the mean of the middle two when their count is even). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** `median (min-max)` of `values`, rounded to whole numbers. */
export function spread(values) {
  return `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)})`;
}
