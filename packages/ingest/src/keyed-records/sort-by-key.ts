import { compareStrings } from "./compare-strings.js";
import { keyedRecord } from "./keyed-record.js";

/** A copy of `record` with its keys in `compareStrings` order. */
export function sortByKey<T>(record: Record<string, T>): Record<string, T> {
  const sorted = keyedRecord<T>();
  for (const key of Object.keys(record).sort(compareStrings)) sorted[key] = record[key] as T;
  return sorted;
}
