import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { CorruptWordTableError } from "./corrupt-word-table-error.js";

/** The bytes of a data file, or `CorruptWordTableError` naming it when it cannot be read. */
export function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new CorruptWordTableError({ file: path, reason: "cannot be read", cause: error });
  }
}

/**
 * The bytes of a data file, checked against the size and SHA-256 that its manifest
 * (`manifestPath`) records; `CorruptWordTableError` naming the file when they differ.
 */
export function readVerified(path: string, recorded: { bytes: number; sha256: string } | undefined, manifestPath: string): Buffer {
  if (recorded === undefined) {
    throw new CorruptWordTableError({ file: manifestPath, reason: `records no checksum for ${path}` });
  }
  const bytes = readBytes(path);
  if (bytes.byteLength !== recorded.bytes) {
    throw new CorruptWordTableError({
      file: path,
      reason: `${bytes.byteLength} bytes where ${manifestPath} records ${recorded.bytes} (reinstall the package or rebuild the table)`,
    });
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  if (sha256 !== recorded.sha256) {
    throw new CorruptWordTableError({
      file: path,
      reason:
        `SHA-256 ${sha256} does not match ${recorded.sha256} recorded in ${manifestPath} ` +
        "(the file was changed or damaged; reinstall the package or rebuild the table)",
    });
  }
  return bytes;
}

/** Checks a manifest's `files` entries (each a size and a hex SHA-256); `bad` throws for the first that is not. */
export function checkFileEntries(files: unknown, bad: (reason: string) => never): Record<string, { bytes: number; sha256: string }> {
  if (files === null || typeof files !== "object") return bad("files must be an object");
  const checked: Record<string, { bytes: number; sha256: string }> = {};
  for (const [file, entry] of Object.entries(files)) {
    const { bytes, sha256 } = (entry ?? {}) as Record<string, unknown>;
    if (typeof bytes !== "number" || typeof sha256 !== "string" || !/^[0-9a-f]{64}$/.test(sha256)) {
      return bad(`files[${JSON.stringify(file)}] needs bytes and a hex sha256`);
    }
    checked[file] = { bytes, sha256 };
  }
  return checked;
}
