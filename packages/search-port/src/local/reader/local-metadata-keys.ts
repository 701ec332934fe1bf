import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../../search-port-error-code.js";
import { readCommittedKeyCounts } from "../format/key-counts-file.js";
import type { MetadataKeyStats, MetadataKeysSummary } from "../port/local-search-port.js";
import { countMetadataKeys } from "../snapshot/count-metadata-keys.js";
import type { LocalIndexState } from "../snapshot/local-index-state.js";
import { countedValuesPerKey } from "../snapshot/metadata-key-counts.js";
import type { KeyCount } from "../snapshot/metadata-key-counts.js";

/** Values listed per key unless asked otherwise. */
const defaultTopValues = 10;

/**
 * A port's `metadataKeys()`: the counts the last commit kept (format 6) updated by the
 * changes searches see since, or every record counted when the commit kept none.
 */
export function localMetadataKeys(state: LocalIndexState, directory: string, topValues = defaultTopValues): MetadataKeysSummary {
  if (!Number.isSafeInteger(topValues) || topValues < 0) {
    throw new LookupKnowledgeError<SearchPortErrorCode>({
      code: "invalid_argument",
      message: `metadataKeys: topValues must be a whole number of 0 or more, got ${String(topValues)}`,
    });
  }
  const committed = readCommittedKeyCounts(directory, state.manifest);
  const snapshot = state.current();
  const counts = countMetadataKeys(committed, state.segments, snapshot, directory);
  const keys = [...counts.keys.entries()].map(([key, count]) => keyStats(key, count, topValues));
  keys.sort((left, right) => right.chunks - left.chunks || compareText(left.key, right.key));
  return { keys, countedFrom: committed === undefined ? "scan" : "commit", valuesCountedPerKey: countedValuesPerKey };
}

function keyStats(key: string, count: KeyCount, topValues: number): MetadataKeyStats {
  if (count.values === null) return { key, chunks: count.chunks, topValues: [] };
  const values = [...count.values.values()];
  values.sort((left, right) => right.chunks - left.chunks || compareText(String(left.value), String(right.value)));
  return {
    key,
    chunks: count.chunks,
    distinctValues: values.length,
    topValues: values.slice(0, topValues).map(({ value, chunks }) => ({ value, chunks })),
  };
}

function compareText(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
