import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { CalibrationView } from "./types.js";

const bins = 20;

/** Histograms of the gate scores of answerable and out-of-scope questions, with the threshold as a vertical line. */
export function CalibrationChart({ view }: { view: CalibrationView }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!element.current) return;
    const centres = Array.from({ length: bins }, (_, index) => (index + 0.5) / bins);
    const count = (answerable: boolean) => {
      const counts = new Array<number>(bins).fill(0);
      for (const sample of view.samples) {
        if (sample.answerable !== answerable || sample.gateScore === null) continue;
        counts[Math.min(bins - 1, Math.floor(sample.gateScore * bins))]! += 1;
      }
      return counts;
    };
    const bars = uPlot.paths.bars?.({ size: [0.45, 40] });
    const threshold = view.referenceThreshold;
    const chart = new uPlot(
      {
        width: Math.min(900, element.current.clientWidth || 800),
        height: 300,
        scales: { x: { time: false, range: [0, 1] } },
        axes: [{ label: "gate score (best top score of an attempt with evidence)" }, { label: "questions" }],
        series: [
          {},
          {
            label: "answerable",
            stroke: "#2b6cb0",
            fill: "rgba(43,108,176,0.45)",
            points: { show: false },
            ...(bars ? { paths: bars } : {}),
          },
          {
            label: "out of scope",
            stroke: "#c05621",
            fill: "rgba(192,86,33,0.45)",
            points: { show: false },
            ...(bars ? { paths: bars } : {}),
          },
        ],
        hooks: {
          draw: [
            (plot) => {
              const x = plot.valToPos(threshold, "x", true);
              const context = plot.ctx;
              context.save();
              context.strokeStyle = "#111";
              context.setLineDash([6, 4]);
              context.beginPath();
              context.moveTo(x, plot.bbox.top);
              context.lineTo(x, plot.bbox.top + plot.bbox.height);
              context.stroke();
              context.restore();
            },
          ],
        },
      },
      [centres, count(true), count(false)],
      element.current,
    );
    return () => chart.destroy();
  }, [view]);
  const none = (answerable: boolean) =>
    view.samples.filter((sample) => sample.answerable === answerable && sample.gateScore === null).length;
  return (
    <>
      <div ref={element} data-testid="calibration-chart" />
      <p class="note" data-testid="no-evidence-counts">
        Found evidence at no threshold (not in the chart): {none(true)} answerable, {none(false)} out of scope.
      </p>
    </>
  );
}
