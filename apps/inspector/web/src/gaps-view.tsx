import { useEffect, useState } from "preact/hooks";
import { getJson } from "./api.js";
import { DailyCountsChart } from "./daily-counts-chart.js";
import { GapGroupCard } from "./gap-group-card.js";
import type { GapsAnswer, Info } from "./types.js";

/** How many groups the view lists at first, and adds on each "Show more": a long tail of single lookups stays out of the way. */
const pageOfGroups = 50;

/**
 * Gaps: what people ask that the knowledge base does not answer. The refused and low-relevance
 * lookups of a period, grouped by topic as `lookup-knowledge gaps` groups them, largest group
 * first, with the lookups per day as a chart; each group opens its lookups and Why not for the
 * page that came closest.
 */
export function GapsView({ info }: { info: Info }) {
  const [draft, setDraft] = useState("30d");
  const [since, setSince] = useState("30d");
  const [data, setData] = useState<GapsAnswer | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [shown, setShown] = useState(pageOfGroups);

  useEffect(() => {
    setError(undefined);
    setShown(pageOfGroups);
    // Only the answer to the latest period is shown: a late one for an earlier period is dropped.
    let current = true;
    getJson<GapsAnswer>(`/api/gaps?${new URLSearchParams({ since })}`).then(
      (answer) => current && setData(answer),
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [since]);

  const report = data?.report;
  const hashed = report ? report.queryText === "hashed" : info.queryStorage === "hash";
  return (
    <section data-testid="gaps-view">
      <h2>Gaps</h2>
      <p class="note">
        The refused and low-relevance lookups of the period, grouped by topic (queries that share their salient terms), largest group first:{" "}
        <strong>missing page</strong> when nothing came close, <strong>page we have but refuse</strong> when a page scored just under the
        threshold (a likely false refusal to review). The same groups as <code>lookup-knowledge gaps</code>.
      </p>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          setSince(draft.trim() || "30d");
        }}
      >
        <label>
          since{" "}
          <input name="gaps-since" placeholder="30m, 1h, 7d or a date" value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
        </label>
        <button type="submit">Show</button>
      </form>
      {hashed ? (
        <p class="note" data-testid="gaps-hashed">
          Queries are stored as keyed hashes (<code>traces.store-query: hash</code>): no query text is shown, and the groups are built from
          the stored hints and sources only.
        </p>
      ) : null}
      {error ? <p class="error">{error}</p> : null}
      {data && report ? (
        <>
          <p data-testid="gaps-summary">
            {report.lookupsRead} refused or low-relevance {report.lookupsRead === 1 ? "lookup" : "lookups"} ({report.distinctQueries}{" "}
            distinct {report.distinctQueries === 1 ? "query" : "queries"}) from {report.since.slice(0, 16).replace("T", " ")} to{" "}
            {report.until.slice(0, 16).replace("T", " ")} UTC, in {report.groups.length} {report.groups.length === 1 ? "group" : "groups"}.
          </p>
          {report.note ? (
            <p class="note" data-testid="gaps-note">
              {report.note}
            </p>
          ) : null}
          <h3>Lookups per day</h3>
          <DailyCountsChart days={data.chart.days} label="refused and low-relevance lookups" />
          {data.chart.cut ? (
            <p class="note">The period is longer than the chart: it draws the latest {data.chart.days.length} days.</p>
          ) : null}
          <h3>Groups</h3>
          {report.groups.length === 0 ? <p data-testid="gaps-empty">No refused or low-relevance lookup in this period.</p> : null}
          <ol class="gap-groups" data-testid="gap-groups">
            {report.groups.slice(0, shown).map((group) => (
              <li key={group.id}>
                <GapGroupCard group={group} period={data.chart.days} hashed={hashed} />
              </li>
            ))}
          </ol>
          {report.groups.length > shown ? (
            <p class="pager">
              showing the {shown} largest of {report.groups.length} groups{" "}
              <button type="button" data-testid="gaps-more" onClick={() => setShown(shown + pageOfGroups)}>
                Show {Math.min(pageOfGroups, report.groups.length - shown)} more
              </button>
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
