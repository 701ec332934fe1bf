import { useEffect, useState } from "preact/hooks";
import { getJson, parseFilterLines, postJson, score } from "./api.js";
import { ConfigForm, type Overrides, QueryFields } from "./lookup-form.js";
import type { ExplainOutcome, Info, LookupExplanation, SourceDocument, SourceSearch } from "./types.js";

const shown = new Set(["kind", "message", "evidenceKey", "boosts"]);

/** What a link into Why not may fill in (the Gaps view's link for a group's closest page); both given, it explains at once. */
export interface WhyNotStart {
  query?: string;
  expected?: string;
}

/** Why not: pick a document by path or title, run a query, and see per attempt where it stood and why (explainLookup). */
export function WhyNotView({ info, start = {} }: { info: Info; start?: WhyNotStart }) {
  const [search, setSearch] = useState("");
  const [documents, setDocuments] = useState<SourceDocument[]>([]);
  const [total, setTotal] = useState(0);
  const [expected, setExpected] = useState(start.expected ?? "");
  const [unmatched, setUnmatched] = useState(false);
  const [query, setQuery] = useState(start.query ?? "");
  const [filter, setFilter] = useState("");
  const [overrides, setOverrides] = useState<Overrides>({});
  const [explanation, setExplanation] = useState<LookupExplanation | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  // Only the answer to the latest search is shown: one that arrives after a newer search was typed is dropped.
  useEffect(() => {
    let current = true;
    getJson<SourceSearch>(`/api/sources?q=${encodeURIComponent(search)}`).then(
      (answer) => {
        if (!current) return;
        setDocuments(answer.documents);
        setTotal(answer.total);
      },
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [search]);

  // A typed target is checked against the index as it is typed: a path, a document id or an evidence key.
  useEffect(() => {
    const typed = expected.trim();
    if (typed === "") {
      setUnmatched(false);
      return;
    }
    let current = true;
    getJson<SourceSearch>(`/api/sources?q=${encodeURIComponent(documentPart(typed))}`).then(
      (answer) => current && setUnmatched(!answer.documents.some((document) => names(document, typed))),
      () => current && setUnmatched(false),
    );
    return () => {
      current = false;
    };
  }, [expected]);

  // Opened from a link that names both the query and the page: explain at once, as the Explain button would.
  useEffect(() => {
    if (start.query?.trim() && start.expected?.trim()) void explain();
  }, []);

  async function run(event: Event) {
    event.preventDefault();
    await explain();
  }

  async function explain() {
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
          <p class="note" data-testid="documents-count">
            {documents.length < total ? `showing ${documents.length} of ${total}` : `${total} ${total === 1 ? "document" : "documents"}`}
          </p>
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
          <label class="wide">
            expected: a source path, a document id or an evidence key (or choose a document){" "}
            <input
              name="expected"
              data-testid="expected"
              placeholder="billing/refunds.md, billing/refunds or billing/refunds#chunk-2"
              value={expected}
              onInput={(e) => setExpected(e.currentTarget.value)}
            />
          </label>
          {unmatched ? (
            <p class="error" data-testid="expected-unmatched">
              {`"${expected.trim()}" matches no document of the index: type a source path (billing/refunds.md), a document id (billing/refunds) or an evidence key (billing/refunds#chunk-2), or choose one from the search.`}
            </p>
          ) : null}
          <QueryFields
            names={{ query: "why-query", filter: "why-filter" }}
            query={query}
            filter={filter}
            onQuery={setQuery}
            onFilter={setFilter}
          />
          <ConfigForm name="overrides" info={info} value={overrides} onChange={setOverrides} />
          <button type="submit" disabled={busy || expected.trim() === ""}>
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

const chunkSuffix = /#chunk-\d+$/;
const markdownExtension = /\.(?:md|mdx|markdown)$/i;

/** The document part of a typed target: without its `#chunk-N`, a leading `./` or `/`, with `/` separators. */
function documentPart(typed: string): string {
  return typed
    .replace(chunkSuffix, "")
    .replaceAll("\\", "/")
    .replace(/^(?:\.\/|\/)+/, "");
}

/** Whether a typed target names this document, as the why-not API resolves it (`.md` optional). */
function names(document: SourceDocument, typed: string): boolean {
  const part = documentPart(typed);
  return document.source === part || document.docId === part || document.docId === part.replace(markdownExtension, "");
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
