import { useEffect, useState } from "preact/hooks";
import { getJson, score } from "./api.js";
import { AttemptsTable, HintsList, ScoreBreakdown, SourceLists } from "./lookup-parts.js";
import type { TraceRecord } from "./types.js";

/** One recorded lookup whole: hints, attempts, the score breakdown, the evidence as recorded, the sources. */
export function TraceView({ id }: { id: string }) {
  const [record, setRecord] = useState<TraceRecord | undefined>();
  const [error, setError] = useState<string | undefined>();
  // The trace of the id shown now: a late answer for an earlier id is dropped, and nothing of it stays.
  useEffect(() => {
    let current = true;
    setRecord(undefined);
    setError(undefined);
    getJson<TraceRecord>(`/api/traces/${encodeURIComponent(id)}`).then(
      (answer) => current && setRecord(answer),
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [id]);
  if (error) return <p class="error">{error}</p>;
  if (!record) return <p>Loading…</p>;
  const details = record.retrievalDetails;
  return (
    <section data-testid="trace-view">
      <h2>Trace {record.id}</h2>
      <table class="facts">
        <tbody>
          <tr>
            <th>query</th>
            <td data-testid="trace-query">{record.queryIsHash ? <code>hash {record.query}</code> : record.query}</td>
          </tr>
          <tr>
            <th>time</th>
            <td>{record.createdAt}</td>
          </tr>
          <tr>
            <th>found</th>
            <td>
              {record.found ? "yes" : "no"} ({record.evidenceStatus}), layer {record.retrievalLayer}, relevance {details.relevanceLevel}
            </td>
          </tr>
          <tr>
            <th>fallback</th>
            <td>{record.fallbackReason ?? "none"}</td>
          </tr>
          <tr>
            <th>duration</th>
            <td>{record.durationMs.toFixed(1)} ms</td>
          </tr>
          {record.error ? (
            <tr>
              <th>error</th>
              <td>{record.error}</td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <h3>L0 hints</h3>
      <HintsList hints={details.hints} />
      <h3>Attempts</h3>
      <AttemptsTable attempts={details.attempts} referenceThreshold={details.referenceThreshold} />
      <p class="note" data-testid="trace-threshold">
        {details.referenceThreshold === undefined
          ? "The threshold the lookup ran with was not recorded (a record written before it was kept)."
          : `rag.reference-threshold ${score(details.referenceThreshold)}: an attempt whose top score is below it is refused.`}
      </p>
      <h3>Score breakdown</h3>
      <ScoreBreakdown entries={details.rerank} />
      <h3>Evidence</h3>
      <p class="note">
        A trace keeps no evidence text (R28): a digest of what the model read, which the block is rebuilt from the index against, and a
        160-character preview.{" "}
        {record.queryIsHash ? (
          "The query is stored as a hash, so it cannot be run again here."
        ) : (
          <a href={`#/playground/${encodeURIComponent(record.query)}`} data-testid="rerun">
            Run this query in the Playground
          </a>
        )}{" "}
        to see the whole text the model reads now.
      </p>
      {details.evidence.map((block, index) => {
        const content = record.modelContent?.[index];
        return (
          <article key={block.evidenceKey} class="block" data-testid="evidence-block">
            <header>
              {block.evidenceKey} · {block.source}
              {block.title ? ` — ${block.title}` : ""} · score {score(block.score)}
              {details.contextPack?.truncated.includes(block.evidenceKey) ? " · truncated by the context budget" : ""}
            </header>
            <p class="reasons">{block.hitReasons.join("; ")}</p>
            {content?.status === "exact" ? (
              <>
                <p class="note" data-testid="model-content-status">
                  The exact content the model read (rebuilt from the index, its digest checked against the trace):
                </p>
                <pre data-testid="model-content">{content.text}</pre>
              </>
            ) : (
              <>
                <p class="note" data-testid="model-content-status">
                  Preview only: {content?.reason ?? "no content digest was recorded"}.
                </p>
                <pre>{block.preview}</pre>
              </>
            )}
          </article>
        );
      })}
      <h3>Context pack</h3>
      <SourceLists included={details.contextPack?.includedSources ?? []} omitted={details.contextPack?.omittedSources ?? []} />
      {details.contextPack && details.contextPack.truncated.length > 0 ? (
        <p data-testid="truncated-blocks">Truncated by the context budget: {details.contextPack.truncated.join(", ")}</p>
      ) : null}
    </section>
  );
}
