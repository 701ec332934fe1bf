import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import { ratesAt, sliderThresholds } from "./threshold-rates.js";
import type { CalibrationView } from "./types.js";

/**
 * The trade-off over thresholds: the share of answerable questions found and of out-of-scope
 * questions refused at each threshold, the configured threshold as a solid line, the slider's dashed.
 */
export function TradeOffChart({ view, threshold }: { view: CalibrationView; threshold: number }) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | undefined>(undefined);
  const chosen = useRef(threshold);
  chosen.current = threshold;
  useEffect(() => {
    if (!element.current) return;
    const rows = sliderThresholds.map((value) => ratesAt(view.samples, value));
    const share = (part: number, whole: number) => (whole === 0 ? null : part / whole);
    const line = (plot: uPlot, value: number, dash: number[]) => {
      const x = plot.valToPos(value, "x", true);
      const context = plot.ctx;
      context.save();
      context.strokeStyle = "#111";
      context.setLineDash(dash);
      context.beginPath();
      context.moveTo(x, plot.bbox.top);
      context.lineTo(x, plot.bbox.top + plot.bbox.height);
      context.stroke();
      context.restore();
    };
    chart.current = new uPlot(
      {
        width: Math.min(900, element.current.clientWidth || 800),
        height: 260,
        scales: { x: { time: false, range: [0, 1] }, y: { range: [0, 1] } },
        axes: [{ label: "threshold" }, { label: "share of questions" }],
        series: [
          {},
          { label: "answerable found", stroke: "#2b6cb0", width: 2, points: { show: false } },
          { label: "out of scope refused", stroke: "#c05621", width: 2, points: { show: false } },
        ],
        hooks: {
          draw: [
            (plot) => {
              line(plot, view.referenceThreshold, []);
              line(plot, chosen.current, [6, 4]);
            },
          ],
        },
      },
      [
        sliderThresholds,
        rows.map((row) => share(row.answerableFound, row.answerableAsked)),
        rows.map((row) => share(row.outOfScopeRefused, row.outOfScopeAsked)),
      ],
      element.current,
    );
    return () => {
      chart.current?.destroy();
      chart.current = undefined;
    };
  }, [view]);
  useEffect(() => {
    chart.current?.redraw(false);
  }, [threshold]);
  return <div ref={element} data-testid="trade-off-chart" />;
}
