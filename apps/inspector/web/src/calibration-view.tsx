import { useState } from "preact/hooks";
import { postJson } from "./api.js";
import { CalibrationChart } from "./calibration-chart.js";
import { percent, ratesAt } from "./threshold-rates.js";
import { TradeOffChart } from "./trade-off-chart.js";
import type { CalibrationView as View } from "./types.js";

/** Calibration: a question file's score distributions, the threshold's found and refused rates, and the eval figures. */
export function CalibrationView() {
  const [view, setView] = useState<View | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [threshold, setThreshold] = useState(0.35);

  async function upload(file: File | undefined) {
    if (!file) return;
    setError(undefined);
    setBusy(true);
    try {
      const answer = await postJson<View>("/api/calibration", { questions: await file.text() });
      setThreshold(answer.referenceThreshold);
      setView(answer);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const row = view?.atThreshold;
  const moved = view ? ratesAt(view.samples, threshold) : undefined;
  return (
    <section>
      <h2>Calibration</h2>
      <p class="note">
        A question file as <code>lookup-knowledge eval</code> takes it: JSON Lines, one {'{"id", "query", "relevant": [...]}'} a line,
        relevant [] for an out-of-scope question. Its lookups are not recorded.
      </p>
      <input type="file" name="questions" accept=".jsonl,.json,.txt" disabled={busy} onChange={(e) => upload(e.currentTarget.files?.[0])} />
      {busy ? <p>Asking the questions…</p> : null}
      {error ? <p class="error">{error}</p> : null}
      {view && row ? (
        <>
          <CalibrationChart view={view} />
          <h3>Try a threshold</h3>
          <label class="wide">
            threshold <strong data-testid="slider-threshold">{threshold.toFixed(2)}</strong>{" "}
            <input
              type="range"
              name="threshold"
              min={0}
              max={1}
              step={0.01}
              value={threshold}
              onInput={(e) => setThreshold(Number(e.currentTarget.value))}
            />
          </label>
          {moved ? (
            <p data-testid="slider-rates">
              answerable found{" "}
              <strong data-testid="slider-found-rate">
                {moved.answerableFound}/{moved.answerableAsked} ({percent(moved.answerableFound, moved.answerableAsked)})
              </strong>{" "}
              · out of scope refused{" "}
              <strong data-testid="slider-refused-rate">
                {moved.outOfScopeRefused}/{moved.outOfScopeAsked} ({percent(moved.outOfScopeRefused, moved.outOfScopeAsked)})
              </strong>
            </p>
          ) : null}
          <TradeOffChart view={view} threshold={threshold} />
          <p class="note">
            The trade-off over thresholds: the solid line is the configured threshold ({view.referenceThreshold}), the dashed one the
            slider's.
          </p>
          <h3>At the configured threshold</h3>
          <table class="facts" data-testid="calibration-figures">
            <tbody>
              <tr>
                <th>threshold</th>
                <td>{view.referenceThreshold}</td>
              </tr>
              <tr>
                <th>answerable found</th>
                <td data-testid="found-rate">
                  {row.answerableFound}/{row.answerableAsked} ({percent(row.answerableFound, row.answerableAsked)})
                </td>
              </tr>
              <tr>
                <th>out of scope refused</th>
                <td data-testid="refused-rate">
                  {row.outOfScopeRefused}/{row.outOfScopeAsked} ({percent(row.outOfScopeRefused, row.outOfScopeAsked)})
                </td>
              </tr>
              <tr>
                <th>nDCG@10</th>
                <td data-testid="ndcg">{view.evaluation.scores.ndcg10.toFixed(3)}</td>
              </tr>
              <tr>
                <th>R@5</th>
                <td>{view.evaluation.scores.recall5.toFixed(3)}</td>
              </tr>
              <tr>
                <th>MRR@10</th>
                <td>{view.evaluation.scores.mrr10.toFixed(3)}</td>
              </tr>
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}
