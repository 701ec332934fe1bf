import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import { errorMessage } from "@lookup-knowledge/core";
import { l0SnapshotFileVersion, l0SnapshotFormat, l0SnapshotPath, type L0SnapshotFileHead } from "./l0-snapshot-file.js";

/** The longest first line read (a head is about 200 bytes). */
const headLimit = 4096;

/** What reading a snapshot found: its body, or why it is not used (`damaged` ones are reported). */
export type L0SnapshotRead = { body: Uint8Array } | { unused: "missing" | "stale" | "older" | "damaged"; reason: string };

/**
 * Reads the data folder's snapshot when it stands for `key` (see `l0SnapshotKey`) and its body
 * matches its checksum; otherwise says why not: missing, stale (the folder changed since),
 * older (another file version) or damaged.
 */
export async function readL0Snapshot(dataDirectory: string, key: string): Promise<L0SnapshotRead> {
  const path = l0SnapshotPath(dataDirectory);
  let bytes: Buffer;
  try {
    bytes = await readWhole(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { unused: "missing", reason: `${path} does not exist` };
    return { unused: "damaged", reason: `${path} cannot be read (${errorMessage(error)})` };
  }
  const end = bytes.subarray(0, headLimit).indexOf(10);
  const head = end < 0 ? undefined : parseHead(bytes.subarray(0, end));
  if (head === undefined) return { unused: "damaged", reason: `${path} does not start with an L0 snapshot head` };
  if (head.version !== l0SnapshotFileVersion) {
    return { unused: "older", reason: `${path} has file version ${head.version}, this version reads ${l0SnapshotFileVersion}` };
  }
  if (head.key !== key) return { unused: "stale", reason: `${path} was written for another state of the data folder` };
  const body = bytes.subarray(end + 1);
  if (body.length !== head.bytes) {
    return { unused: "damaged", reason: `${path} holds ${body.length} bytes after its head, which says ${head.bytes}` };
  }
  if (createHash("sha256").update(body).digest("hex") !== head.sha256) {
    return { unused: "damaged", reason: `${path} does not match its checksum (it was changed after it was written)` };
  }
  return { body };
}

/**
 * The file in one buffer of its own (offset 0, so the body's aligned arrays stay aligned), read
 * in as few calls as the system allows (`readFile` reads 512 KB at a time).
 */
async function readWhole(path: string): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.allocUnsafeSlow(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === size ? bytes : bytes.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/** The head's shape, checked by hand (the query path loads no zod). */
function parseHead(line: Uint8Array): L0SnapshotFileHead | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(line.buffer, line.byteOffset, line.byteLength).toString("utf8"));
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  const head = value as Partial<L0SnapshotFileHead>;
  const fine =
    head.format === l0SnapshotFormat &&
    Number.isInteger(head.version) &&
    typeof head.key === "string" &&
    Number.isSafeInteger(head.bytes) &&
    typeof head.sha256 === "string";
  return fine ? (head as L0SnapshotFileHead) : undefined;
}
