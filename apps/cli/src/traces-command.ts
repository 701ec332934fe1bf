import { existsSync } from "node:fs";
import { join } from "node:path";
import { createDurableTraceStore, type DurableTraceStore, type StoredToolInvocation } from "@lookup-knowledge/trace-store";
import type { CliConfig } from "./cli-config.js";
import { CliError } from "./cli-error.js";
import { printable } from "@lookup-knowledge/agent-tool/format";
import { redactSecrets } from "./redact-secrets.js";
import { reportedTraceStoreErrors } from "./reported-trace-store-errors.js";
import { tracesDirectory } from "./cli-trace-spool.js";

export { openCliTraceSpool, tracesDirectory } from "./cli-trace-spool.js";

/**
 * The durable trace store of the CLI's data folder, for the commands that read traces:
 * PostgreSQL when `DATABASE_URL` is set, else the embedded database in `<data>/traces`.
 * Only the embedded database needs the data folder: with `DATABASE_URL` and no data folder
 * here, there is simply no spool to flush, and the records are read from PostgreSQL.
 */
export function openCliTraceStore(config: CliConfig, environment: NodeJS.ProcessEnv = process.env): DurableTraceStore {
  const databaseUrl = environment["DATABASE_URL"]?.trim();
  if (!databaseUrl && !existsSync(config.dataDirectory)) {
    throw new CliError({
      code: "traces_not_found",
      message: `There is no data folder at ${config.dataDirectory}, so no lookups were recorded there (set DATABASE_URL to read the traces kept in PostgreSQL).`,
    });
  }
  // A folder that exists but never held a lookup (a mistyped --data): no database is made in it.
  if (!databaseUrl && !existsSync(tracesDirectory(config.dataDirectory))) {
    throw new CliError({
      code: "traces_not_found",
      message: `No lookups were recorded in ${config.dataDirectory}: it has no ${join("traces", "")} folder (set DATABASE_URL to read the traces kept in PostgreSQL).`,
    });
  }
  const store = createDurableTraceStore({
    directory: tracesDirectory(config.dataDirectory),
    ...(databaseUrl ? { databaseUrl } : {}),
    queryStorage: config.traces.queryStorage,
    ...(config.traces.queryHashKey ? { queryHashKey: config.traces.queryHashKey } : {}),
    flushIntervalMs: 0,
    onError: (error) => {
      if (reportedTraceStoreErrors.has(error.message)) return;
      reportedTraceStoreErrors.add(error.message);
      console.error(`lookup-knowledge: ${printable(redactSecrets(error.message, environment))}`);
    },
  });
  return readingFromSpoolFirst(store);
}

/** Said once per process, the first time a read must open the embedded database. */
let saidOpening = false;

/**
 * The store, whose `list` and `get` answer from the spool when it alone decides the answer
 * (`listFromSpool`, `getFromSpool`: the embedded database is not started), and otherwise say
 * on stderr, once, that they start the embedded database, then flush and read it. With
 * PostgreSQL (`DATABASE_URL`) `list` reads the database, as before, saying nothing (other
 * folders' spools fill it too), and `get` answers from this folder's spool only for an id still
 * waiting there (ids are unique: the database would hold the same record). `flush`,
 * `prune`, `count` and `knowledgeGaps` use the database, saying so the same way; `close` flushes only once
 * the database was used.
 */
function readingFromSpoolFirst(store: DurableTraceStore): DurableTraceStore {
  let usedDatabase = false;
  const opening = (): void => {
    usedDatabase = true;
    if (store.driver !== "pglite" || saidOpening) return;
    saidOpening = true;
    const first = existsSync(store.databaseLocation) ? "" : " (the first time creates it: about 15 s)";
    console.error(
      printable(
        `lookup-knowledge: starting the trace database in ${store.databaseLocation}${first}, to move the spooled lookups into it and read them`,
      ),
    );
  };
  return {
    ...store,
    async list(query) {
      const spooled = store.listFromSpool(query);
      if (spooled !== undefined) return spooled;
      opening();
      return store.list(query);
    },
    async get(id) {
      const spooled = store.getFromSpool(id);
      if (spooled !== undefined) return spooled;
      opening();
      return store.get(id);
    },
    flush() {
      opening();
      return store.flush();
    },
    prune(olderThan) {
      opening();
      return store.prune(olderThan);
    },
    count() {
      opening();
      return store.count();
    },
    knowledgeGaps(options) {
      opening();
      return store.knowledgeGaps(options);
    },
    // A reader that answered from the spool leaves it for the next flush: closing starts no database.
    close: (options) => store.close({ flush: usedDatabase, ...options }),
  };
}

/** The `traces` table: time, query, found, layer, fallback reason, evidence count, duration, id. */
export function formatTraceTable(records: readonly StoredToolInvocation[]): string {
  if (records.length === 0) return "No recorded lookups match.";
  const rows = records.map((record) => [
    record.createdAt.slice(0, 19).replace("T", " "),
    cut(record.query.replace(/\s+/g, " ").trim(), 44),
    record.found ? "yes" : "no",
    record.retrievalLayer,
    record.fallbackReason ?? "-",
    String(record.evidenceCount),
    `${record.durationMs.toFixed(1)} ms`,
    record.id,
  ]);
  const header = ["time (UTC)", "query", "found", "layer", "fallback reason", "evidence", "duration", "id"];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => displayWidth(row[column] ?? ""))));
  const line = (cells: string[]): string =>
    cells
      .map((cell, column) => (column === 5 || column === 6 ? cell.padStart(widths[column] ?? 0) : pad(cell, widths[column] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), ...rows.map(line)].map(printable).join("\n");
}

/** One recorded lookup, whole: the call, the hints, each attempt, the rerank trace, the evidence and the context pack. */
export function formatTraceDetails(record: StoredToolInvocation): string {
  const details = record.retrievalDetails;
  const lines = [
    `id           ${record.id}`,
    `time         ${record.createdAt}${record.recordedAt ? ` (stored ${record.recordedAt})` : ""}`,
    `tool         ${record.toolName}`,
    `query        ${JSON.stringify(record.query)}`,
    `transformed  ${JSON.stringify(record.transformedQuery)}`,
    `found        ${record.found} (${record.evidenceStatus}), layer ${record.retrievalLayer}, relevance ${details.relevanceLevel}`,
    `counts       ${record.candidateCount} candidates, ${record.evidenceCount} evidence blocks`,
    `fallback     ${record.fallbackReason ?? "none"}`,
    `duration     ${record.durationMs.toFixed(1)} ms`,
  ];
  if (record.error !== null) lines.push(`error        ${record.error}`);
  if (!details.l1Enabled) lines.push("L1           disabled");

  const hints = details.hints;
  lines.push("", "L0 hints");
  lines.push(`  keywords   ${list(hints.keywords)}`, `  domains    ${list(hints.domains)}`);
  lines.push(`  entities   ${list(hints.entities)}`, `  titles     ${list(hints.titles)}`);
  for (const entry of hints.entries) {
    lines.push(`  entry      ${entry.id} (${[entry.source, entry.title, entry.domain].filter(Boolean).join(", ")})`);
  }

  lines.push("", "Attempts");
  if (details.attempts.length === 0) lines.push("  none (L1 did not run)");
  for (const attempt of details.attempts) {
    const filter = attempt.filter === undefined ? "none" : JSON.stringify(attempt.filter);
    const l0 = attempt.l0Filter === undefined ? "" : ` (L0 part ${JSON.stringify(attempt.l0Filter)})`;
    const top = attempt.topScore === undefined ? "-" : attempt.topScore.toFixed(3);
    lines.push(
      `  #${attempt.attempt} ${attempt.outcome}: filter ${filter}${l0}`,
      `     ${attempt.candidateCount} candidates, ${attempt.evidenceCount} evidence, top score ${top}, ${attempt.durationMs.toFixed(1)} ms` +
        (attempt.rejectedHits > 0 ? `, ${attempt.rejectedHits} malformed hits refused` : ""),
    );
    if (attempt.topSource) {
      const { source, title } = attempt.topSource;
      lines.push(`     best page ${source}${title === undefined ? "" : ` (${JSON.stringify(title)})`}`);
    }
    if (attempt.answerability) {
      const { score, model, signals } = attempt.answerability;
      const named = Object.entries(signals)
        .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0))
        .map(([name, value]) => `${name} ${typeof value === "number" ? value.toFixed(2) : "?"}`)
        .join(", ");
      lines.push(`     answerability ${typeof score === "number" ? score.toFixed(3) : "?"} (${model}): ${named}`);
    }
    if (attempt.error) lines.push(`     error: ${attempt.error}`);
  }

  lines.push("", "Rerank");
  if (details.rerank.length === 0) lines.push("  none");
  for (const entry of details.rerank) {
    const boosts = entry.boosts.map((boost) => `${boost.signal} ${boost.amount >= 0 ? "+" : ""}${boost.amount.toFixed(2)}`).join(", ");
    const base = entry.baseScore === undefined ? "-" : entry.baseScore.toFixed(3);
    lines.push(
      `  ${entry.rank}. ${entry.evidenceKey} (${entry.source}) base ${base} -> ${entry.finalScore.toFixed(3)}${boosts ? ` [${boosts}]` : ""}`,
    );
  }

  lines.push("", "Evidence");
  if (details.evidence.length === 0) lines.push("  none");
  for (const block of details.evidence) {
    const score = block.score === undefined ? "" : `, score ${block.score.toFixed(3)}`;
    lines.push(`  ${block.evidenceKey} (${block.source}${block.title ? `, "${block.title}"` : ""}${score}, ${block.retrievalLayer})`);
    if (block.hitReasons.length > 0) lines.push(`     why: ${block.hitReasons.join("; ")}`);
    if (block.preview) lines.push(`     ${block.preview}`);
  }

  if (details.contextPack) {
    lines.push("", "Context pack");
    lines.push(`  included   ${list(details.contextPack.includedSources)}`);
    lines.push(`  omitted    ${list(details.contextPack.omittedSources)}`);
    lines.push(`  truncated  ${list(details.contextPack.truncated)}`);
  }
  // Every line holds text from documents, ports or queries: no control character reaches the terminal.
  return lines.map(printable).join("\n");
}

function list(values: readonly string[]): string {
  return values.length === 0 ? "-" : values.join(", ");
}

/** East Asian wide and full-width characters take two columns of a terminal. */
const wide = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u;

function displayWidth(text: string): number {
  let width = 0;
  for (const character of text) width += wide.test(character) ? 2 : 1;
  return width;
}

/** `text` cut to at most `width` columns, `…` marking a cut. */
function cut(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = "";
  for (const character of text) {
    if (displayWidth(kept + character) > width - 1) break;
    kept += character;
  }
  return `${kept}…`;
}

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - displayWidth(text)));
}
