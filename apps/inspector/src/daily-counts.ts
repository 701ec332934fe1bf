/** One UTC day's count of lookups: `day` is its date, `2026-03-14`. */
export interface DayCount {
  day: string;
  count: number;
}

/** The most days a chart gets one bar each: a year and a day (a longer period keeps its latest days). */
export const maxChartDays = 366;

const dayMs = 86_400_000;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Every UTC day from `period.from` (or the earliest day given) to `period.to` (or the latest)
 * with its count from `perDay` (days with lookups only, as the gaps report lists them), the
 * others as 0, oldest first: what a chart of counts over time draws. At most `maxChartDays`,
 * the latest ones (`cut` says days were left out). A day that is not a `YYYY-MM-DD` date is
 * left out; one listed twice is counted twice.
 */
export function dailyCounts(
  perDay: ReadonlyArray<{ day: string; lookups: number }>,
  period: { from?: Date; to?: Date } = {},
): { days: DayCount[]; cut: boolean } {
  const counts = new Map<number, number>();
  for (const { day, lookups } of perDay) {
    const at = datePattern.test(day) ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
    if (Number.isNaN(at)) continue;
    const index = at / dayMs;
    counts.set(index, (counts.get(index) ?? 0) + lookups);
  }
  const known = [...counts.keys()];
  const fromDay = period.from ? Math.floor(period.from.getTime() / dayMs) : Math.min(...known);
  const toDay = period.to ? Math.floor(period.to.getTime() / dayMs) : Math.max(...known);
  if (!Number.isFinite(fromDay) || !Number.isFinite(toDay) || toDay < fromDay) return { days: [], cut: false };
  const start = Math.max(fromDay, toDay - maxChartDays + 1);
  const days: DayCount[] = [];
  for (let day = start; day <= toDay; day++) {
    days.push({ day: new Date(day * dayMs).toISOString().slice(0, 10), count: counts.get(day) ?? 0 });
  }
  return { days, cut: start > fromDay };
}
