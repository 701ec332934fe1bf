import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { MetadataKeyCounts, isMetadataValue } from "../snapshot/metadata-key-counts.js";
import type { MetadataValue, StoredKeyCount } from "../snapshot/metadata-key-counts.js";
import type { StoredManifest } from "./segmented-manifest.js";

const chunks = z.number().int().positive();

/**
 * The `facets` file of a format-6 generation: per metadata key, the records carrying it and
 * its values' counts (`MetadataKeyCounts`), JSON. Each `[value, chunks]` pair is checked by
 * `isValueCount` (a zod tuple per pair costs ten times as much: 35 ms for 10,000 pairs).
 */
const keyCountsFileSchema = z.strictObject({ keys: z.record(z.string(), z.unknown()) });
/** One key's counts, checked apart: zod's record leaves out a key named `__proto__`. */
const keyCountSchema = z.strictObject({ chunks, values: z.array(z.unknown()).nullable() });

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
  const parsed = keyCountsFileSchema.safeParse(json);
  const malformed = (): CorruptIndexError => new CorruptIndexError({ directory, reason: `${entry.name} is malformed` });
  if (!parsed.success) throw malformed();
  const stored: Record<string, StoredKeyCount> = Object.create(null);
  for (const [key, entry] of Object.entries((json as { keys: Record<string, unknown> }).keys)) {
    const count = keyCountSchema.safeParse(entry);
    if (!count.success || (count.data.values !== null && !count.data.values.every(isValueCount))) throw malformed();
    stored[key] = { chunks: count.data.chunks, values: count.data.values as StoredKeyCount["values"] };
  }
  return MetadataKeyCounts.from(stored);
}
