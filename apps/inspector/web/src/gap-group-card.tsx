import { useState } from "preact/hooks";
import { score } from "./api.js";
import { DailyCountsChart, type DailyCount } from "./daily-counts-chart.js";
import type { GapGroup } from "./types.js";

const kindLabels: Record<GapGroup["kind"], string> = {
  "missing-page": "missing page",
  "refused-page": "page we have but refuse",
};

/** The link that opens Why not for `source`, with `query` when there is one to run (none in hash mode). */
function whyNotLink(source: string, query: string | undefined): string {
  const parameters = new URLSearchParams(query === undefined ? { expected: source } : { query, expected: source });
  return `#/why-not?${parameters}`;
}

/** The group's lookups on each day the period's chart draws (its `perDay` lists only the days it has lookups). */
function groupDays(group: GapGroup, period: readonly DailyCount[]): DailyCount[] {
  const counts = new Map<string, number>();
  for (const day of group.perDay) counts.set(day.day, (counts.get(day.day) ?? 0) + day.lookups);
  return period.map((day) => ({ day: day.day, count: counts.get(day.day) ?? 0 }));
}

const time = (iso: string) => iso.slice(0, 19).replace("T", " ");

/**
 * One group of the Gaps view: its kind, counts and period, the terms its queries share, its
 * example queries, the pages that came closest (each opening Why not with the group's most
 * asked query), and on demand its lookups (each opening its trace) and their count per day.
 * Everything in it came from a query or a document: it is rendered as text only.
 */
export function GapGroupCard({ group, period, hashed }: { group: GapGroup; period: readonly DailyCount[]; hashed: boolean }) {
  const [open, setOpen] = useState(false);
  const example = hashed ? undefined : group.examples[0];
  return (
    <article class={`block gap-group gap-${group.kind}`} data-testid="gap-group" data-group-id={group.id}>
      <header>
        <strong data-testid="gap-kind">{kindLabels[group.kind]}</strong> ·{" "}
        <span data-testid="gap-lookups">
          {group.lookups} {group.lookups === 1 ? "lookup" : "lookups"}
        </span>{" "}
        ({group.refusedLookups} refused, {group.lowRelevanceLookups} low relevance) · {group.distinctQueries} distinct{" "}
        {group.distinctQueries === 1 ? "query" : "queries"} · first {time(group.firstSeen)}, last {time(group.lastSeen)} UTC
      </header>
      <p class="note" data-testid="gap-score">
        best score {score(group.bestScore)}
        {group.threshold === null ? " (threshold not recorded)" : ` against threshold ${score(group.threshold)}`}
      </p>
      {group.terms.length > 0 ? (
        <p data-testid="gap-terms">
          shared terms:{" "}
          {group.terms.map((term, index) => (
            <span key={term}>
              {index > 0 ? ", " : ""}
              <code>{term}</code>
            </span>
          ))}
        </p>
      ) : null}
      {hashed ? null : (
        <ul data-testid="gap-examples">
          {group.examples.map((query) => (
            <li key={query} data-testid="gap-example">
              {query}
            </li>
          ))}
        </ul>
      )}
      {group.closest.length === 0 ? (
        <p class="note">No page came close.</p>
      ) : (
        <table data-testid="gap-closest">
          <thead>
            <tr>
              <th>closest page</th>
              <th>title</th>
              <th>best score</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {group.closest.map((page) => (
              <tr key={page.source} data-testid="gap-page">
                <td>
                  <code data-testid="gap-page-source">{page.source}</code>
                </td>
                <td>{page.title ?? "-"}</td>
                <td class="number">{score(page.bestScore)}</td>
                <td>
                  <a href={whyNotLink(page.source, example)} data-testid="gap-why-not">
                    {example === undefined ? "Why not (type a query)" : "Why not"}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <button type="button" data-testid="gap-open" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Hide its lookups" : `Open its lookups (${group.lookups})`}
      </button>
      {open ? (
        <div data-testid="gap-lookup-list">
          <DailyCountsChart days={groupDays(group, period)} label="this group's lookups" />
          {group.lookupIds.length < group.lookups ? (
            <p class="note">
              showing the newest {group.lookupIds.length} of {group.lookups}
            </p>
          ) : null}
          <ul>
            {group.lookupIds.map((id) => (
              <li key={id}>
                <a href={`#/trace/${encodeURIComponent(id)}`} data-testid="gap-lookup">
                  {id}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </article>
  );
}
