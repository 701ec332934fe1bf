import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { acquireFileLock, defaultLockWaitMs } from "./acquire-file-lock.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";

// The newest record an embedded (PGlite) trace database may hold, kept in a small file beside
// it (`<database>.newest.json`: `{"newest": <ms>}`), so that a listing of records all newer
// than it can be answered from the spool without starting the database (`listSpooledRecords`).
// It is an upper bound: raised before each insert (a crash after the raise only makes later
// listings ask the database), never lowered (a prune leaves it). A database folder without the
// file (made by an earlier version) has an unknown newest record: the database is asked.

/** The file of the PGlite folder `databaseDirectory`. */
export function databaseNewestFile(databaseDirectory: string): string {
  return `${databaseDirectory}.newest.json`;
}

/**
 * The start time (ms) of the newest record the database in `databaseDirectory` may hold;
 * `null` when it holds none (no database folder, no file); `undefined` when unknown.
 */
export function readDatabaseNewest(databaseDirectory: string): number | null | undefined {
  let text: string;
  try {
    text = readFileSync(databaseNewestFile(databaseDirectory), "utf8");
  } catch {
    return existsSync(databaseDirectory) ? undefined : null;
  }
  try {
    const newest = (JSON.parse(text) as { newest?: unknown }).newest;
    if (newest === null) return null;
    return typeof newest === "number" && Number.isFinite(newest) ? newest : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Raises the file to cover `records` before they are inserted. `storedNewest` reads the
 * newest record the open database holds; it is asked only when the file says nothing (a
 * database of an earlier version). The file is read and written under its own lock
 * (`<file>.lock`): the spool's flush lock is one trace folder's, and folders that share a
 * `databaseDirectory` flush into one database, so two raises at once must not lower it.
 */
export async function raiseDatabaseNewest(
  databaseDirectory: string,
  records: readonly ToolInvocationRecord[],
  storedNewest: () => Promise<string | undefined>,
): Promise<void> {
  const file = databaseNewestFile(databaseDirectory);
  const release = await acquireFileLock(`${file}.lock`, {
    waitMs: defaultLockWaitMs,
    what: `The file of the newest trace record ${file}`,
  });
  try {
    await raiseUnderLock(databaseDirectory, records, storedNewest);
  } finally {
    await release();
  }
}

async function raiseUnderLock(
  databaseDirectory: string,
  records: readonly ToolInvocationRecord[],
  storedNewest: () => Promise<string | undefined>,
): Promise<void> {
  let newest = readDatabaseNewest(databaseDirectory);
  if (newest === undefined) {
    const stored = await storedNewest();
    newest = stored === undefined ? null : Date.parse(stored);
    // A stored time JavaScript cannot read: the file stays unknown, the database is asked.
    if (Number.isNaN(newest)) return;
  }
  let raised = newest ?? Number.NEGATIVE_INFINITY;
  for (const record of records) raised = Math.max(raised, Date.parse(record.createdAt));
  if (raised === newest || !Number.isFinite(raised)) return;
  const file = databaseNewestFile(databaseDirectory);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify({ newest: raised }));
  renameSync(temporary, file);
}
