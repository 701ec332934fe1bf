import { useState } from "preact/hooks";
import { parseFilterLines, postJson } from "./api.js";
import { AttemptsTable, HintsList, ScoreBreakdown, SourceLists } from "./lookup-parts.js";
import { ConfigForm, type Overrides, QueryFields } from "./lookup-form.js";
import type { BlockChange, Info, PlaygroundComparison, PlaygroundRun } from "./types.js";

/** The Playground: a query with overrides of any rag.* key and a filter; optionally configurations A and B side by side. */
export function PlaygroundView({ info, initialQuery = "" }: { info: Info; initialQuery?: string }) {
  const [query, setQuery] = useState(initialQuery);
  const [filter, setFilter] = useState("");
  const [a, setA] = useState<Overrides>({});
  const [b, setB] = useState<Overrides>({});
  const [compare, setCompare] = useState(false);
  const [runs, setRuns] = useState<{ a: PlaygroundRun; b?: PlaygroundRun; changes?: BlockChange[] } | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function run(event: Event) {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    try {
      const parsedFilter = parseFilterLines(filter);
      const base = { query, ...(parsedFilter ? { filter: parsedFilter } : {}) };
      setRuns(
        compare
          ? await postJson<PlaygroundComparison>("/api/compare", { ...base, a, b })
          : { a: await postJson<PlaygroundRun>("/api/lookup", { ...base, config: a }) },
      );
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section>
      <h2>Playground</h2>
      <p class="note">
        Lookups here use a retriever of their own over the same index: they are not recorded, and they cannot write to the index.
      </p>
      <form onSubmit={run} class="playground">
        <QueryFields names={{ query: "query", filter: "filter" }} query={query} filter={filter} onQuery={setQuery} onFilter={setFilter} />
        <label>
          <input type="checkbox" name="compare" checked={compare} onChange={(e) => setCompare(e.currentTarget.checked)} /> compare two
          configurations
        </label>
        <div class="configs">
          <ConfigForm name="A" info={info} value={a} onChange={setA} />
          {compare ? <ConfigForm name="B" info={info} value={b} onChange={setB} /> : null}
        </div>
        <button type="submit" disabled={busy}>
          Run
        </button>
      </form>
      {error ? <p class="error">{error}</p> : null}
      {runs?.changes ? <ChangesTable changes={runs.changes} /> : null}
      {runs ? (
        <div class="columns">
          <RunView title={runs.b ? "A" : "Result"} run={runs.a} />
          {runs.b ? <RunView title="B" run={runs.b} /> : null}
        </div>
      ) : null}
    </section>
  );
}

function ChangesTable({ changes }: { changes: BlockChange[] }) {
  return (
    <>
      <h3>A → B</h3>
      <table data-testid="changes">
        <thead>
          <tr>
            <th>block</th>
            <th>rank A</th>
            <th>rank B</th>
            <th>change</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((change) => (
            <tr key={change.evidenceKey} class={`change-${change.change}`} data-testid="change-row">
              <td>
                {change.source} <code>{change.evidenceKey}</code>
              </td>
              <td class="number">{change.rankA ?? "-"}</td>
              <td class="number">{change.rankB ?? "-"}</td>
              <td>{change.change}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function RunView({ title, run }: { title: string; run: PlaygroundRun }) {
  const { result } = run;
  return (
    <div class="run" data-testid={`run-${title}`}>
      <h3>{title}</h3>
      <p data-testid="run-found">
        found {result.found ? "yes" : "no"} · relevance {result.relevanceLevel} · threshold {result.retrievalTrace.referenceThreshold}
      </p>
      <p>{result.message}</p>
      <h4>L0 hints</h4>
      <HintsList hints={result.retrievalTrace.hints} />
      <h4>Attempts</h4>
      <AttemptsTable attempts={result.retrievalTrace.attempts} referenceThreshold={result.retrievalTrace.referenceThreshold} />
      <h4>Score breakdown</h4>
      {/* Only a lookup that found evidence has a rerank trace and a context pack. */}
      <ScoreBreakdown entries={result.found ? result.rerankTrace.entries : []} />
      {result.found ? (
        <>
          <h4>What the model reads</h4>
          {result.contextPack.blocks.map((block) => (
            <article key={block.evidenceKey} class="block" data-testid="packed-block">
              <header>
                {block.source}
                {block.title ? ` — ${block.title}` : ""}
                {block.truncated ? " (truncated by the context budget)" : ""}
              </header>
              <p class="reasons">{block.hitReasons.join("; ")}</p>
              <pre>{block.content}</pre>
            </article>
          ))}
          <SourceLists included={result.contextPack.summary.includedSources} omitted={result.contextPack.summary.omittedSources} />
        </>
      ) : null}
    </div>
  );
}
