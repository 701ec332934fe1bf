import { printable } from "@lookup-knowledge/agent-tool/format";
import { openKnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import type { OpenedStore } from "@lookup-knowledge/agent-tool/stores";
import type { CliConfig } from "./cli-config.js";
import { describeCalibrationState } from "./eval-command.js";
import { terminalJson } from "./terminal-json.js";

/** What the local index's `metadataKeys()` tells (search-port's `MetadataKeysSummary`, through the store the CLI opens). */
export type MetadataKeysSummary = ReturnType<NonNullable<OpenedStore["localIndex"]>["metadataKeys"]>;
type MetadataKeyStats = MetadataKeysSummary["keys"][number];

/** Values listed per metadata key. */
const valuesShown = 10;
/** A value longer than this is cut in the text output (`--json` has it whole). */
const valueChars = 40;

/** What the other stores are told instead of the metadata keys: they keep no counts of them. */
const notCounted =
  "not counted by this store (it cannot list its keys or values); the ingest writes docId, chunkIndex, source, title, breadcrumb, keywords, contentHash, and category and description when a document has them, on every chunk";

/** `lookup-knowledge stats [--json]`: what the knowledge base of the settings holds, as printable lines or one JSON object. */
export async function runStatsCommand(
  config: CliConfig,
  warn: (message: string) => void,
  options: { json?: boolean } = {},
): Promise<string> {
  const knowledgeBase = await openKnowledgeBase({
    dataDirectory: config.dataDirectory,
    store: config.store,
    config: config.ragKeys,
    onWarning: warn,
  });
  try {
    const index = knowledgeBase.store.localIndex;
    const local = index?.stats();
    const metadataKeys = index?.metadataKeys({ topValues: valuesShown });
    const calibration = describeCalibrationState(knowledgeBase.calibration);
    if (options.json) {
      return terminalJson({
        dataFolder: config.dataDirectory,
        store: knowledgeBase.store.description,
        ...(local ? { ...local } : { documents: knowledgeBase.documents }),
        l0Entries: knowledgeBase.l0Index.size,
        calibration,
        metadataKeys: metadataKeys ?? null,
        ...(metadataKeys ? {} : { metadataKeysNote: notCounted }),
      });
    }
    const lines = [`data folder  ${config.dataDirectory}`, `store        ${knowledgeBase.store.description}`];
    if (local) {
      lines.push(
        `documents    ${local.documents}`,
        `chunks       ${local.chunks}`,
        `L0 entries   ${knowledgeBase.l0Index.size}`,
        `embedder     ${local.embedder ? `${local.embedder.id}@${local.embedder.version} (${local.embedder.dimension} dimensions)` : "none (lexical only)"}`,
        `on disk      ${(local.bytesOnDisk / 1024 / 1024).toFixed(1)} MB in ${local.segments} segment${local.segments === 1 ? "" : "s"}`,
        `last commit  ${local.lastCommit ?? "never"}`,
      );
    } else {
      lines.push(
        `documents    ${knowledgeBase.documents} (recorded by the last ingest into this store)`,
        `L0 entries   ${knowledgeBase.l0Index.size}`,
      );
    }
    lines.push(`calibration  ${calibration}`);
    lines.push(...(metadataKeys ? metadataKeyLines(metadataKeys) : [`metadata     ${notCounted}`]));
    return lines.map(printable).join("\n");
  } finally {
    await knowledgeBase.close();
  }
}

/** The metadata keys as lines: a heading with an example filter, then a line per key with its most common values. */
export function metadataKeyLines(summary: MetadataKeysSummary): string[] {
  if (summary.keys.length === 0) return ["metadata     none (the index holds no chunk)"];
  const example = exampleFilter(summary.keys);
  const lines = [
    `metadata     the keys a filter can name, with the chunks carrying each and its most common values (chunks)${example ? `; e.g. query --filter ${example} "..."` : ""}:`,
  ];
  if (summary.countedFrom === "scan") {
    lines.push(
      "  (counted now from every chunk: an earlier release wrote this index; the next ingest that changes a file keeps the counts)",
    );
  }
  const width = Math.max(...summary.keys.map((key) => key.key.length));
  for (const key of summary.keys) lines.push(`  ${key.key.padEnd(width)}  ${describeKey(key, summary.valuesCountedPerKey)}`);
  return lines;
}

function describeKey(key: MetadataKeyStats, counted: number): string {
  const chunks = `${key.chunks} chunk${key.chunks === 1 ? "" : "s"}`;
  if (key.distinctValues === undefined) return `${chunks}, more than ${counted} values (none listed)`;
  if (key.distinctValues === 0) return `${chunks}, no value a filter can match by equality`;
  // Values on one chunk each (an id, a hash) are listed only when all of them fit.
  if (key.distinctValues > key.topValues.length && key.topValues[0]?.chunks === 1)
    return `${chunks}, ${key.distinctValues} values, each on one chunk only`;
  const values = key.topValues.map((entry) => `${shownValue(entry.value)} (${entry.chunks})`).join(", ");
  const more = key.distinctValues > key.topValues.length ? `, ... ${key.distinctValues - key.topValues.length} more` : "";
  return `${chunks}, ${key.distinctValues} value${key.distinctValues === 1 ? "" : "s"}: ${values}${more}`;
}

/** A value as it is written after `key=`: quoted when it holds what separates the list, or is cut; cut past `valueChars`. */
function shownValue(value: string | number | boolean): string {
  if (typeof value !== "string") return String(value);
  const text = value.length > valueChars ? `${value.slice(0, valueChars - 3)}...` : value;
  return text === "" || text !== text.trim() || /[,()"]/.test(text) ? JSON.stringify(text) : text;
}

/** `category=billing` (or the first key whose values repeat): a filter to paste. */
function exampleFilter(keys: readonly MetadataKeyStats[]): string | undefined {
  const candidates = [...keys].sort((left, right) => Number(right.key === "category") - Number(left.key === "category"));
  for (const key of candidates) {
    const top = key.topValues[0];
    if (top === undefined || top.chunks < 2 || typeof top.value !== "string" || /[\s"'$`\\]/.test(top.value)) continue;
    if (top.value.length > valueChars || /[^\w./:@-]/.test(key.key)) continue;
    return `${key.key}=${top.value}`;
  }
  return undefined;
}
