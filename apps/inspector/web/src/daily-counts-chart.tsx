// A small bar chart of lookups per day, drawn as inline SVG: a few dozen bars need no chart
// library, and SVG attributes (not style attributes) pass the page's `style-src 'self'` policy.

/** One day's count: `day` is a UTC date, `2026-03-14`. */
export interface DailyCount {
  day: string;
  count: number;
}

const height = 120;
const top = 16;
const bottom = 20;
const left = 32;
const widest = 720;

/**
 * Bars of `days` (every day of the period, zeros included, oldest first), the highest count
 * on the left axis, the first and last day below. Each bar carries its day and count (as
 * `data-day` and `data-count`, and a tooltip), so what it shows can be read back.
 */
export function DailyCountsChart({ days, label }: { days: readonly DailyCount[]; label: string }) {
  if (days.length === 0) return null;
  const highest = Math.max(1, ...days.map((day) => day.count));
  const step = Math.max(4, Math.min(24, Math.floor(widest / days.length)));
  // Wide enough for the first and last day's labels even with one or two bars.
  const width = Math.max(left + 200, left + step * days.length + 8);
  const plotHeight = height - top - bottom;
  const first = days[0]?.day ?? "";
  const last = days[days.length - 1]?.day ?? "";
  return (
    <svg
      class="daily-counts"
      data-testid="daily-counts"
      role="img"
      aria-label={`${label}: lookups per day from ${first} to ${last}`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
    >
      <text x={left - 4} y={top + 4} text-anchor="end" class="axis">
        {highest}
      </text>
      <text x={left - 4} y={top + plotHeight} text-anchor="end" class="axis">
        0
      </text>
      <line x1={left} y1={top + plotHeight} x2={width - 4} y2={top + plotHeight} class="baseline" />
      {days.map((day, index) => {
        const barHeight = day.count === 0 ? 0 : Math.max(1, (day.count / highest) * plotHeight);
        return (
          <rect
            key={day.day}
            class="bar"
            data-testid="day-bar"
            data-day={day.day}
            data-count={day.count}
            x={left + index * step + 1}
            y={top + plotHeight - barHeight}
            width={Math.max(1, step - 2)}
            height={barHeight}
          >
            <title>{`${day.day}: ${day.count} ${day.count === 1 ? "lookup" : "lookups"}`}</title>
          </rect>
        );
      })}
      <text x={left} y={height - 4} class="axis">
        {first}
      </text>
      {days.length > 1 ? (
        <text x={width - 4} y={height - 4} text-anchor="end" class="axis">
          {last}
        </text>
      ) : null}
    </svg>
  );
}
