import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { MetadataKeyCounts, isMetadataValue } from "../snapshot/metadata-key-counts.js";
import type { MetadataValue, StoredKeyCount } from "../snapshot/metadata-key-counts.js";
import type { StoredManifest } from "./segmented-manifest.js";

/**
 * The `facets` file of a format-6 generation: per metadata key, the records carrying it and
 * its values' counts (`MetadataKeyCounts`), JSON: `{ keys: { [key]: { chunks, values } } }`.
 * Checked by hand, not by zod (issue 36 item 5: a reader opening an index loads no zod); a
 * malformed file is refused whole, so no message depends on which check failed.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** One key's counts: exactly `chunks` (a whole number, 1 or more) and `values` (null, or `[value, count]` pairs). */
function readKeyCount(entry: unknown): StoredKeyCount | undefined {
  if (!isPlainObject(entry)) return undefined;
  const keys = Object.keys(entry);
  if (keys.length !== 2 || !Object.hasOwn(entry, "chunks") || !Object.hasOwn(entry, "values")) return undefined;
  const { chunks, values } = entry;
  if (typeof chunks !== "number" || !Number.isSafeInteger(chunks) || chunks <= 0) return undefined;
  if (values !== null && !(Array.isArray(values) && values.every(isValueCount))) return undefined;
  return { chunks, values: values as StoredKeyCount["values"] };
}

function isValueCount(pair: unknown): pair is [MetadataValue, number] {
  if (!Array.isArray(pair) || pair.length !== 2) return false;
  const [value, count] = pair as unknown[];
  return isMetadataValue(value) && typeof count === "number" && Number.isSafeInteger(count) && count > 0;
}

/** The bytes of a `facets` file. */
export function encodeKeyCounts(counts: MetadataKeyCounts): Uint8Array {
  return Buffer.from(JSON.stringify({ keys: counts.toStored() }), "utf8");
}

/**
 * The metadata key counts the commit of `manifest` recorded, or undefined when
 * there is none or it recorded none (format 5 and older). Throws `CorruptIndexError` when the
 * file differs from its manifest entry or is malformed, or a manifest of format 6 lists none.
 */
export function readCommittedKeyCounts(directory: string, manifest: StoredManifest | undefined): MetadataKeyCounts | undefined {
  const entry = manifest?.files.facets;
  if (entry === undefined) {
    if (manifest !== undefined && manifest.formatVersion >= 6) {
      throw new CorruptIndexError({ directory, reason: `the manifest of format ${manifest.formatVersion} lists no facets file` });
    }
    return undefined;
  }
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(directory, entry.name));
  } catch (error) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} cannot be read`, cause: error });
  }
  if (bytes.length !== entry.bytes || createHash("sha256").update(bytes).digest("hex") !== entry.sha256) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} does not match its size or checksum in the manifest` });
  }
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new CorruptIndexError({ directory, reason: `${entry.name} is not valid JSON`, cause: error });
  }
  const malformed = (): CorruptIndexError => new CorruptIndexError({ directory, reason: `${entry.name} is malformed` });
  if (!isPlainObject(json) || Object.keys(json).length !== 1 || !isPlainObject(json["keys"])) throw malformed();
  const stored: Record<string, StoredKeyCount> = Object.create(null);
  for (const [key, entry] of Object.entries(json["keys"])) {
    const count = readKeyCount(entry);
    if (count === undefined) throw malformed();
    stored[key] = count;
  }
  return MetadataKeyCounts.from(stored);
}
