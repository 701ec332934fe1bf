import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import { indexFormatVersion, indexManifestSchema, manifestFileName, readPlainIndexManifest } from "./index-manifest.js";
import { readPlainSegmentedManifest, segmentedManifestProblem, segmentedManifestSchema } from "./segmented-manifest.js";
import type { SegmentedManifest, StoredManifest } from "./segmented-manifest.js";
import { isMissing } from "./is-missing.js";
import { manifestChecksum } from "./manifest-text.js";

/** The manifest of a folder, or undefined when it has none. Throws `CorruptIndexError` when it is unreadable. */
export function readManifest(directory: string): StoredManifest | undefined {
  let text: string;
  try {
    text = readFileSync(join(directory, manifestFileName), "utf8");
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CorruptIndexError({ directory, reason: `${manifestFileName} is not valid JSON`, cause: error });
  }
  if (typeof json === "object" && json !== null && "formatVersion" in json) {
    const version = (json as { formatVersion: unknown }).formatVersion;
    if (typeof version === "number" && version > indexFormatVersion) {
      throw new CorruptIndexError({
        directory,
        reason: `it has format version ${version}, newer than this library reads (${indexFormatVersion}); upgrade @lookup-knowledge/search-port`,
      });
    }
  }
  // Checked on the fields as read, before the schema reorders them.
  const recorded = typeof json === "object" && json !== null ? (json as { checksum?: unknown }).checksum : undefined;
  if (typeof recorded === "string" && recorded !== manifestChecksum(json as object)) {
    throw new CorruptIndexError({
      directory,
      reason: `${manifestFileName} does not match its checksum (it was changed after it was written)`,
    });
  }
  const segmented = typeof json === "object" && json !== null && (json as { formatVersion?: unknown }).formatVersion === 7;
  const manifest =
    (segmented ? readPlainSegmentedManifest(json) : readPlainIndexManifest(json)) ?? parseManifest(directory, json, segmented);
  const problem = segmented ? segmentedManifestProblem(manifest as SegmentedManifest) : undefined;
  if (problem !== undefined) throw new CorruptIndexError({ directory, reason: `${manifestFileName} is inconsistent: ${problem}` });
  return manifest;
}

/** A manifest the plain checks did not accept, read by its schema, which names what is wrong. */
function parseManifest(directory: string, json: unknown, segmented: boolean): StoredManifest {
  const parsed = segmented ? segmentedManifestSchema().safeParse(json) : indexManifestSchema().safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
    throw new CorruptIndexError({ directory, reason: `${manifestFileName} is malformed${where}: ${issue?.message ?? "invalid"}` });
  }
  return parsed.data;
}
