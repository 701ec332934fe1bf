import { createHash, randomBytes } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

// The spool of a trace folder is the folder `spool/` in it. Each writer (one spool object,
// normally one per process) appends to its own segment file, so two processes never write
// into one file and their lines cannot interleave:
//
//   <15-digit ms time>-<pid>-<host>-<process token>-<sequence>.open    being written
//   <15-digit ms time>-<pid>-<host>-<process token>-<sequence>.jsonl   sealed: its writer closed or rotated it
//
// `<host>` (8 hex) names the machine and PID namespace of the writer: a pid means something
// only there. Names of earlier versions lack it (`<time>-<pid>-<token>-<sequence>`) and are
// read as this host's. Names sort by creation time. `progress.json` holds, per segment, the
// byte offset up to which its records are in the database; `rejected.jsonl` keeps the lines
// a flush skipped.

export const openSuffix = ".open";
export const sealedSuffix = ".jsonl";
export const progressFile = "progress.json";
export const rejectedFile = "rejected.jsonl";

/**
 * How long an open segment of another host or PID namespace must have been left unchanged
 * before a flush takes its writer for finished: 10 minutes.
 */
export const defaultForeignWriterIdleMs = 600_000;

/** Per process: tells this process's segments from those of an earlier process with the same pid. */
const processToken = randomBytes(4).toString("hex");

/**
 * This host and PID namespace: 8 hex of the SHA-256 of the host name and the inode of
 * `/proc/self/ns/pid` (when readable). Two containers sharing a spool folder, each with its
 * own PID 1, get different ones.
 */
export const hostIdentity: string = computeHostIdentity();

function computeHostIdentity(): string {
  let namespace = "";
  try {
    namespace = String(statSync("/proc/self/ns/pid").ino);
  } catch {
    // No procfs (macOS, Windows): the host name alone.
  }
  return createHash("sha256").update(`${hostname()}\n${namespace}`, "utf8").digest("hex").slice(0, 8);
}

/**
 * The segment files this process is writing: a spool adds its segment when it opens it and
 * removes it once sealed or abandoned. Module state, like `processToken`: a segment of this
 * process is judged by the same copy of this module that wrote it (a second bundled copy has
 * its own token, so it never consults this set; see docs/decisions/0002).
 */
export const liveSegments: Set<string> = new Set<string>();

/** The spool folder of a trace folder. */
export function spoolDirectory(traceDirectory: string): string {
  return join(traceDirectory, "spool");
}

let sequence = 0;

/** A new segment's name (without suffix), later than any made before by this process. */
export function newSegmentName(): string {
  sequence += 1;
  return `${String(Date.now()).padStart(15, "0")}-${process.pid}-${hostIdentity}-${processToken}-${String(sequence).padStart(6, "0")}`;
}

export interface SpoolSegment {
  /** The name without suffix; the key in `progress.json`. */
  name: string;
  file: string;
  sealed: boolean;
}

/** `<time>-<pid>-<host>-<token>-<sequence>`, or the older `<time>-<pid>-<token>-<sequence>`. */
const segmentName = /^\d{15}-\d+-(?:[0-9a-f]{8}-)?[0-9a-f]+-\d+$/;

/** The segments of a spool folder, oldest first (none when the folder does not exist). */
export function listSpoolSegments(directory: string): SpoolSegment[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const segments: SpoolSegment[] = [];
  for (const entry of names) {
    if (entry.endsWith(openSuffix)) {
      const name = entry.slice(0, -openSuffix.length);
      if (segmentName.test(name)) segments.push({ name, file: join(directory, entry), sealed: false });
    } else if (entry.endsWith(sealedSuffix)) {
      const name = entry.slice(0, -sealedSuffix.length);
      if (segmentName.test(name)) segments.push({ name, file: join(directory, entry), sealed: true });
    }
  }
  return segments.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

/** The pid, host and process token a segment's name holds (an old name's host is this one). */
export function segmentWriter(name: string): { pid: number; host: string; token: string } {
  const parts = name.split("-");
  if (parts.length >= 5) return { pid: Number(parts[1]), host: parts[2] ?? "", token: parts[3] ?? "" };
  return { pid: Number(parts[1]), host: hostIdentity, token: parts[2] ?? "" };
}

/**
 * Whether the writer of an open segment may still append to it.
 *
 * - A segment of this process: while it is open here.
 * - One of another process on this host and PID namespace: while that process runs
 *   (`kill(pid, 0)`). A segment left by a process that died (a crash, SIGKILL) is not.
 * - One of another host or PID namespace (a container sharing the folder), whose pid means
 *   nothing here: until the file has been left unchanged for `foreignWriterIdleMs`
 *   (default 10 minutes). Its writer also checks after every append that its file is still
 *   there, and writes the line again into a new segment when it is not.
 */
export function segmentWriterAlive(segment: SpoolSegment, options: { foreignWriterIdleMs?: number; now?: number } = {}): boolean {
  if (segment.sealed) return false;
  const { pid, host, token } = segmentWriter(segment.name);
  if (host !== hostIdentity) {
    let modified: number;
    try {
      modified = statSync(segment.file).mtimeMs;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
    return (options.now ?? Date.now()) - modified < (options.foreignWriterIdleMs ?? defaultForeignWriterIdleMs);
  }
  if (pid === process.pid && token === processToken) return liveSegments.has(segment.file);
  if (pid === process.pid || !Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
