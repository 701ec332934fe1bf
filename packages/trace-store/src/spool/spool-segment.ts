import { randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";

// The spool of a trace folder is the folder `spool/` in it. Each writer (one spool object,
// normally one per process) appends to its own segment file, so two processes never write
// into one file and their lines cannot interleave:
//
//   <15-digit ms time>-<pid>-<process token>-<sequence>.open    being written
//   <15-digit ms time>-<pid>-<process token>-<sequence>.jsonl   sealed: its writer closed or rotated it
//
// Names sort by creation time. `progress.json` holds, per segment, the byte offset up to
// which its records are in the database; `rejected.jsonl` keeps the lines a flush skipped.

export const openSuffix = ".open";
export const sealedSuffix = ".jsonl";
export const progressFile = "progress.json";
export const rejectedFile = "rejected.jsonl";

/** Per process: tells this process's segments from those of an earlier process with the same pid. */
const processToken = randomBytes(4).toString("hex");

/** The segments this process is writing (shared by every copy of this module in the process). */
const liveKey = Symbol.for("lookup-knowledge.trace-spool.live-segments");
const globals = globalThis as unknown as Record<symbol, Set<string> | undefined>;
export const liveSegments: Set<string> = (globals[liveKey] ??= new Set<string>());

/** The spool folder of a trace folder. */
export function spoolDirectory(traceDirectory: string): string {
  return join(traceDirectory, "spool");
}

let sequence = 0;

/** A new segment's name (without suffix), later than any made before by this process. */
export function newSegmentName(): string {
  sequence += 1;
  return `${String(Date.now()).padStart(15, "0")}-${process.pid}-${processToken}-${String(sequence).padStart(6, "0")}`;
}

export interface SpoolSegment {
  /** The name without suffix; the key in `progress.json`. */
  name: string;
  file: string;
  sealed: boolean;
}

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
    if (!/^\d{15}-\d+-[0-9a-f]+-\d+\./.test(entry)) continue;
    if (entry.endsWith(openSuffix)) {
      segments.push({ name: entry.slice(0, -openSuffix.length), file: join(directory, entry), sealed: false });
    } else if (entry.endsWith(sealedSuffix)) {
      segments.push({ name: entry.slice(0, -sealedSuffix.length), file: join(directory, entry), sealed: true });
    }
  }
  return segments.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
}

/**
 * Whether the writer of an open segment may still append to it: a segment of this process
 * that is open here, or one of another process that is still running. A segment left by a
 * process that died (a crash, SIGKILL) is not: a flush takes all of it and removes it.
 */
export function segmentWriterAlive(segment: SpoolSegment): boolean {
  if (segment.sealed) return false;
  const [, pidText, token] = segment.name.split("-");
  const pid = Number(pidText);
  if (pid === process.pid && token === processToken) return liveSegments.has(segment.file);
  if (pid === process.pid || !Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
