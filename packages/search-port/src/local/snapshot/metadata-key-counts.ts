/** A value a filter can match by equality: what `$eq` and `$in` compare (matches-filter.ts). */
export type MetadataValue = string | number | boolean;

/**
 * Distinct values counted per key; past it the key's values are dropped (`values: null`) and
 * only its chunk count is kept, so the counts stay small whatever the corpus: keys with a
 * value per chunk (`contentHash`, `docId`) go past it at once, and their values are no use
 * to a filter anyway.
 */
export const countedValuesPerKey = 5_000;

/** One key's counts: the records carrying it and, up to `countedValuesPerKey` distinct values, how many records hold each. */
export interface KeyCount {
  chunks: number;
  /**
   * By value (a Map tells the string "1" from the number 1, as filters do); null once the key
   * had more distinct values than are counted.
   */
  values: Map<MetadataValue, { value: MetadataValue; chunks: number }> | null;
}

/** The stored form of one key's counts: `values` as `[value, chunks]` pairs, or null. */
export interface StoredKeyCount {
  chunks: number;
  values: Array<[MetadataValue, number]> | null;
}

/** One text per value for a stable order in the file, kept apart by type. */
function orderKey(value: MetadataValue): string {
  return `${typeof value}:${String(value)}`;
}

/** Whether `value` is one a filter can match by equality (a finite number, not NaN or Infinity). */
export function isMetadataValue(value: unknown): value is MetadataValue {
  return typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

/** The values of one metadata field a filter can match: the scalar itself, or the distinct scalars of a list. */
function filterableValues(field: unknown): MetadataValue[] {
  if (!Array.isArray(field)) return isMetadataValue(field) ? [field] : [];
  const values: MetadataValue[] = [];
  for (const element of field) {
    if (isMetadataValue(element) && !values.includes(element)) values.push(element);
  }
  return values;
}

/**
 * How many records carry each metadata key, and how many hold each of its values: what a
 * caller needs to write a `--filter key=value`. A key counts when its value is neither
 * `undefined` nor `null` (a missing field, as filters read it); a list counts each distinct
 * element once per record. Records are added and removed one by one, so a commit updates the
 * counts of the last one by its changes alone.
 */
export class MetadataKeyCounts {
  readonly keys = new Map<string, KeyCount>();

  /** The counts as stored (format 6), or fresh ones. */
  static from(stored: Record<string, StoredKeyCount> | undefined): MetadataKeyCounts {
    const counts = new MetadataKeyCounts();
    for (const [key, count] of Object.entries(stored ?? {})) {
      const values = count.values === null ? null : new Map(count.values.map(([value, chunks]) => [value, { value, chunks }] as const));
      counts.keys.set(key, { chunks: count.chunks, values });
    }
    return counts;
  }

  /** Counts one record's metadata in (`sign` 1) or out (`sign` -1). */
  apply(metadata: Record<string, unknown>, sign: 1 | -1): void {
    for (const [key, field] of Object.entries(metadata)) {
      if (field === undefined || field === null) continue;
      let count = this.keys.get(key);
      if (count === undefined) {
        if (sign < 0) continue;
        count = { chunks: 0, values: new Map() };
        this.keys.set(key, count);
      }
      count.chunks += sign;
      if (count.chunks <= 0) {
        this.keys.delete(key);
        continue;
      }
      if (count.values !== null) this.applyValues(count, count.values, filterableValues(field), sign);
    }
  }

  /** The counts as stored: keys and values in a fixed order, so equal counts give equal files. */
  toStored(): Record<string, StoredKeyCount> {
    // No prototype: a key named `__proto__` is an entry like any other, not the object's prototype.
    const stored: Record<string, StoredKeyCount> = Object.create(null);
    for (const key of [...this.keys.keys()].sort()) {
      const count = this.keys.get(key) as KeyCount;
      const values =
        count.values === null
          ? null
          : [...count.values.values()]
              .map((entry) => ({ order: orderKey(entry.value), entry }))
              .sort((left, right) => (left.order < right.order ? -1 : 1));
      stored[key] = { chunks: count.chunks, values: values === null ? null : values.map(({ entry }) => [entry.value, entry.chunks]) };
    }
    return stored;
  }

  private applyValues(count: KeyCount, values: NonNullable<KeyCount["values"]>, fieldValues: MetadataValue[], sign: 1 | -1): void {
    for (const value of fieldValues) {
      const entry = values.get(value);
      if (entry === undefined) {
        if (sign < 0) continue;
        if (values.size >= countedValuesPerKey) {
          count.values = null;
          return;
        }
        values.set(value, { value, chunks: 1 });
      } else {
        entry.chunks += sign;
        if (entry.chunks <= 0) values.delete(value);
      }
    }
  }
}
