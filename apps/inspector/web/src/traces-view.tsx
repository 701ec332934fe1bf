import { useEffect, useState } from "preact/hooks";
import { getJson } from "./api.js";
import type { TracePage } from "./types.js";

const reasons = ["filtered_vector_no_evidence", "filtered_vector_low_quality", "filtered_vector_error"];

interface Filters {
  since: string;
  noEvidence: boolean;
  reason: string;
  query: string;
}

/** The Traces view: recorded lookups, newest first, with the filters of `lookup-knowledge traces`, paged. */
export function TracesView() {
  const [draft, setDraft] = useState<Filters>({ since: "", noEvidence: false, reason: "", query: "" });
  const [filters, setFilters] = useState<Filters>(draft);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<TracePage | undefined>();
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    const parameters = new URLSearchParams({ page: String(page), pageSize: "20" });
    if (filters.since) parameters.set("since", filters.since);
    if (filters.noEvidence) parameters.set("noEvidence", "true");
    if (filters.reason) parameters.set("reason", filters.reason);
    if (filters.query) parameters.set("query", filters.query);
    setError(undefined);
    // Only the answer to the latest filters and page is shown: a late one for earlier ones is dropped.
    let current = true;
    getJson<TracePage>(`/api/traces?${parameters}`).then(
      (answer) => current && setData(answer),
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [filters, page]);

  return (
    <section>
      <h2>Traces</h2>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setPage(1);
          setFilters(draft);
        }}
      >
        <label>
          since{" "}
          <input
            name="since"
            placeholder="30m, 1h, 7d or a date"
            value={draft.since}
            onInput={(e) => setDraft({ ...draft, since: e.currentTarget.value })}
          />
        </label>
        <label>
          <input
            type="checkbox"
            name="noEvidence"
            checked={draft.noEvidence}
            onChange={(e) => setDraft({ ...draft, noEvidence: e.currentTarget.checked })}
          />{" "}
          no evidence only
        </label>
        <label>
          reason{" "}
          <select name="reason" value={draft.reason} onChange={(e) => setDraft({ ...draft, reason: e.currentTarget.value })}>
            <option value="">any</option>
            {reasons.map((reason) => (
              <option key={reason} value={reason}>
                {reason}
              </option>
            ))}
          </select>
        </label>
        <label>
          query <input name="query" value={draft.query} onInput={(e) => setDraft({ ...draft, query: e.currentTarget.value })} />
        </label>
        <button type="submit">Filter</button>
      </form>
      {error ? <p class="error">{error}</p> : null}
      {data ? (
        <>
          <table data-testid="traces-table">
            <thead>
              <tr>
                <th>time (UTC)</th>
                <th>query</th>
                <th>found</th>
                <th>layer</th>
                <th>fallback reason</th>
                <th>evidence</th>
                <th>duration</th>
              </tr>
            </thead>
            <tbody>
              {data.records.map((record) => (
                <tr key={record.id} data-testid="trace-row">
                  <td>
                    <a href={`#/trace/${encodeURIComponent(record.id)}`}>{record.createdAt.slice(0, 19).replace("T", " ")}</a>
                  </td>
                  <td data-testid="trace-query">
                    {record.queryIsHash ? (
                      <code title="stored as a hash">hash {record.query.replace(/^hmac-sha256:/, "").slice(0, 12)}…</code>
                    ) : (
                      record.query
                    )}
                  </td>
                  <td>{record.found ? "yes" : "no"}</td>
                  <td>{record.retrievalLayer}</td>
                  <td>{record.fallbackReason ?? "-"}</td>
                  <td class="number">{record.evidenceCount}</td>
                  <td class="number">{record.durationMs.toFixed(1)} ms</td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.records.length === 0 ? <p>No recorded lookups match.</p> : null}
          <p class="pager">
            <button type="button" disabled={page === 1} onClick={() => setPage(page - 1)}>
              Newer
            </button>{" "}
            page {page}{" "}
            <button type="button" disabled={!data.hasMore} onClick={() => setPage(page + 1)}>
              Older
            </button>
          </p>
        </>
      ) : null}
    </section>
  );
}
