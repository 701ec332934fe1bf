import { useEffect, useState } from "preact/hooks";
import { getJson, parseFilterLines, postJson, score } from "./api.js";
import { ConfigForm } from "./playground-view.js";
import type { ExplainOutcome, Info, LookupExplanation, SourceDocument } from "./types.js";

const shown = new Set(["kind", "message", "evidenceKey", "boosts"]);

/** Why not: pick a document by path or title, run a query, and see per attempt where it stood and why (explainLookup). */
export function WhyNotView({ info }: { info: Info }) {
  const [search, setSearch] = useState("");
  const [documents, setDocuments] = useState<SourceDocument[]>([]);
  const [expected, setExpected] = useState("");
  const [query, setQuery] = useState("");
  const [filter, setFilter] = useState("");
  const [overrides, setOverrides] = useState<Record<string, string>>({});
  const [explanation, setExplanation] = useState<LookupExplanation | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    getJson<{ documents: SourceDocument[] }>(`/api/sources?q=${encodeURIComponent(search)}`).then(
      (answer) => setDocuments(answer.documents),
      (failure: Error) => setError(failure.message),
    );
  }, [search]);

  async function run(event: Event) {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const parsedFilter = parseFilterLines(filter);
      setExplanation(
        await postJson<LookupExplanation>("/api/why-not", {
          query,
          expected,
          config: overrides,
          ...(parsedFilter ? { filter: parsedFilter } : {}),
        }),
      );
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section>
      <h2>Why not</h2>
      <div class="columns">
        <div>
          <label>
            find a document (path or title) <input name="source-search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
          </label>
          <ul class="documents" data-testid="documents">
            {documents.map((document) => (
              <li key={document.docId}>
                <button type="button" class={expected === document.source ? "chosen" : ""} onClick={() => setExpected(document.source)}>
                  {document.source}
                </button>{" "}
                {document.title ?? ""}
              </li>
            ))}
          </ul>
        </div>
        <form onSubmit={run} class="playground run">
          <p>
            expected: <code data-testid="expected">{expected || "choose a document"}</code>
          </p>
          <label class="wide">
            query <input name="why-query" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
          </label>
          <label class="wide">
            filter (key=value, one a line){" "}
            <textarea name="why-filter" rows={2} value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
          </label>
          <ConfigForm name="overrides" info={info} value={overrides} onChange={setOverrides} />
          <button type="submit" disabled={busy || expected === ""}>
            Explain
          </button>
        </form>
      </div>
      {error ? <p class="error">{error}</p> : null}
      {explanation ? (
        <div data-testid="explanation">
          <p data-testid="why-found">
            {explanation.found ? "Reached the model" : "Did not reach the model"} ·{" "}
            {explanation.expected.source ?? explanation.expected.docId}
            {explanation.expected.inIndex ? "" : " (not in the index)"}
          </p>
          <p data-testid="why-summary">{explanation.summary}</p>
          <table data-testid="why-attempts">
            <thead>
              <tr>
                <th>attempt</th>
                <th>filter</th>
                <th>attempt outcome</th>
                <th>outcome</th>
                <th>numbers</th>
              </tr>
            </thead>
            <tbody>
              {explanation.attempts.map((attempt) => (
                <tr key={attempt.index} data-testid="why-attempt">
                  <td>
                    {attempt.index}
                    {attempt.used ? " (used)" : ""}
                  </td>
                  <td>
                    <code>{attempt.filter === undefined ? "none" : JSON.stringify(attempt.filter)}</code>
                  </td>
                  <td>{attempt.attemptOutcome}</td>
                  <td>
                    <strong data-testid="why-kind">{attempt.outcome.kind}</strong>
                    <div>{attempt.outcome.message}</div>
                  </td>
                  <td>
                    <OutcomeNumbers outcome={attempt.outcome} />
                    {attempt.chunks && attempt.chunks.length > 0 ? (
                      <details>
                        <summary>{attempt.chunks.length} chunks</summary>
                        <ul>
                          {attempt.chunks.map((chunk, index) => (
                            <li key={`${chunk.evidenceKey ?? ""}-${index}`}>
                              <code>{chunk.evidenceKey ?? "-"}</code> {chunk.kind}
                              {chunk.rank === undefined ? "" : ` · rank ${chunk.rank}`}
                              {chunk.score === undefined ? "" : ` · score ${score(chunk.score)}`}
                            </li>
                          ))}
                        </ul>
                      </details>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function OutcomeNumbers({ outcome }: { outcome: ExplainOutcome }) {
  const entries = Object.entries(outcome).filter(([key]) => !shown.has(key));
  return (
    <div data-testid="why-numbers">
      {outcome.evidenceKey ? (
        <div>
          chunk <code>{outcome.evidenceKey}</code>
        </div>
      ) : null}
      {entries.map(([key, value]) => (
        <div key={key} data-testid={`why-${key}`}>
          {key} {typeof value === "number" ? (Number.isInteger(value) ? String(value) : score(value)) : JSON.stringify(value)}
        </div>
      ))}
      {outcome.boosts?.map((boost, index) => (
        <div key={`${boost.signal}-${index}`} data-testid="why-boost">
          {boost.signal} {boost.amount >= 0 ? "+" : ""}
          {score(boost.amount)}
        </div>
      ))}
    </div>
  );
}
