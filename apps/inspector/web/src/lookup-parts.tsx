// Pieces both the One-trace view and the Playground show: hints, attempts, the score breakdown.
import { score } from "./api.js";
import type { AttemptView, Hints, RerankEntry } from "./types.js";

export function HintsList({ hints }: { hints: Hints }) {
  const row = (label: string, values: string[] | undefined) => (
    <tr>
      <th>{label}</th>
      <td>{values && values.length > 0 ? values.join(", ") : "-"}</td>
    </tr>
  );
  return (
    <table class="facts" data-testid="hints">
      <tbody>
        {row("keywords", hints.keywords)}
        {row("domains", hints.domains)}
        {row("generic domains", hints.otherDomains)}
        {row("entities", hints.entities)}
        {row("titles", hints.titles)}
        {row(
          "entries",
          hints.entries.map((entry) => `${entry.source}${entry.title ? ` (${entry.title})` : ""}`),
        )}
      </tbody>
    </table>
  );
}

/**
 * The attempts of a lookup. With the threshold the lookup ran with, an attempt refused by it
 * (`low_quality`: its top score below the threshold) says so with both numbers.
 */
export function AttemptsTable({ attempts, referenceThreshold }: { attempts: AttemptView[]; referenceThreshold?: number | undefined }) {
  if (attempts.length === 0) return <p>No L1 attempt (L1 did not run).</p>;
  return (
    <table data-testid="attempts">
      <thead>
        <tr>
          <th>#</th>
          <th>filter</th>
          <th>candidates</th>
          <th>evidence</th>
          <th>top score</th>
          <th>best page</th>
          <th>outcome</th>
          <th>signals</th>
          <th>duration</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.attempt} data-testid="attempt-row">
            <td>{attempt.attempt}</td>
            <td>
              <code>{attempt.filter === undefined ? "none" : JSON.stringify(attempt.filter)}</code>
            </td>
            <td class="number">{attempt.candidateCount}</td>
            <td class="number">{attempt.evidenceCount}</td>
            <td class="number">{score(attempt.topScore)}</td>
            <td data-testid="attempt-best-page">{bestPage(attempt)}</td>
            <td>
              <span data-testid="attempt-outcome">
                {attempt.outcome}
                {attempt.error
                  ? `: ${typeof attempt.error === "string" ? attempt.error : `${attempt.error.code}: ${attempt.error.message}`}`
                  : ""}
              </span>
              <ThresholdCheck attempt={attempt} referenceThreshold={referenceThreshold} />
            </td>
            <td>
              <code class="signals">{attempt.answerability ? JSON.stringify(attempt.answerability) : "-"}</code>
            </td>
            <td class="number">{attempt.durationMs.toFixed(1)} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The page behind the attempt's top score (issue 37 item 1), as text (Preact escapes it); "-" when none is recorded. */
function bestPage(attempt: AttemptView): string {
  const page = "topSource" in attempt ? attempt.topSource : undefined;
  if (!page) return "-";
  return page.title ? `${page.source} (${page.title})` : page.source;
}

/** How an attempt stood against the threshold: refused below it, passed at or above it, or nothing to weigh. */
function ThresholdCheck({ attempt, referenceThreshold }: { attempt: AttemptView; referenceThreshold?: number | undefined }) {
  if (referenceThreshold === undefined || attempt.outcome === "error") return null;
  const threshold = score(referenceThreshold);
  if (attempt.topScore === undefined || attempt.evidenceCount === 0) {
    return <div data-testid="threshold-check">no evidence, so no top score to weigh against threshold {threshold}</div>;
  }
  // The retriever records why it refused a filtered attempt; the page does not re-derive the rule.
  // A record from before it did keeps only the port's signal, which is shown as it is.
  const signals = attempt.answerability?.["signals"] as Record<string, number> | undefined;
  const leftOut = attempt.leftOutShare ?? signals?.["filterShare"];
  if (attempt.outcome === "low_quality" && attempt.topScore >= referenceThreshold) {
    return (
      <div data-testid="threshold-check" class="refused">
        {leftOut === undefined
          ? `refused although top score ${score(attempt.topScore)} ≥ threshold ${threshold} (the record does not say why)`
          : `refused: the L0 filter kept only ${score(leftOut)} of the best match it filtered out`}
      </div>
    );
  }
  if (attempt.outcome === "low_quality") {
    return (
      <div data-testid="threshold-check" class="refused">
        refused: top score {score(attempt.topScore)} &lt; threshold {threshold}
      </div>
    );
  }
  return (
    <div data-testid="threshold-check">
      top score {score(attempt.topScore)} ≥ threshold {threshold}
    </div>
  );
}

/** Each block's final score as its base score plus each named boost. */
export function ScoreBreakdown({ entries }: { entries: RerankEntry[] }) {
  if (entries.length === 0) return <p>No evidence, so no rerank.</p>;
  return (
    <table data-testid="score-breakdown">
      <thead>
        <tr>
          <th>rank</th>
          <th>evidence block</th>
          <th>base score</th>
          <th>boosts</th>
          <th>final score</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.evidenceKey} data-testid="breakdown-row" data-evidence-key={entry.evidenceKey}>
            <td class="number" data-testid="breakdown-rank">
              {entry.rank}
            </td>
            <td data-testid="breakdown-block">
              <code>{entry.evidenceKey}</code> · {entry.source}
            </td>
            <td class="number" data-testid="base-score">
              {score(entry.baseScore)}
            </td>
            <td data-testid="boosts">
              {entry.boosts.length === 0
                ? "none"
                : entry.boosts.map((boost, index) => (
                    <div key={`${boost.signal}-${index}`} data-testid="boost" title={"reason" in boost ? boost.reason : ""}>
                      {boost.signal} {boost.amount >= 0 ? "+" : ""}
                      {score(boost.amount)}
                    </div>
                  ))}
            </td>
            <td class="number" data-testid="final-score">
              {score(entry.finalScore)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SourceLists({ included, omitted }: { included: string[]; omitted: string[] }) {
  return (
    <table class="facts" data-testid="sources">
      <tbody>
        <tr>
          <th>included sources</th>
          <td>{included.length > 0 ? included.join(", ") : "-"}</td>
        </tr>
        <tr>
          <th>omitted sources</th>
          <td>{omitted.length > 0 ? omitted.join(", ") : "-"}</td>
        </tr>
      </tbody>
    </table>
  );
}
