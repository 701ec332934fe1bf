import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { ownedFilePattern } from "../format/index-manifest.js";
import { storedFileEntries } from "../format/segmented-manifest.js";
import type { StoredManifest } from "../format/segmented-manifest.js";

/**
 * Removes data files no manifest refers to and manifest temporaries: leftovers of old,
 * failed or crashed commits. Only files that are certainly nobody's work in progress go:
 * those in `removable` (files this writer created, or of a generation it superseded), and
 * files not modified for longer than the lock's stale time `staleMs` (a writer that is
 * still writing a file keeps changing it, and one that stopped for that long has lost its
 * lock). A recent unreferenced file may be another writer's, one that lost the lock but
 * does not know it yet: it is left alone. Best effort: a file that cannot be removed now
 * (a platform that keeps files open by readers) is left for the next commit or writer.
 * Removed names are taken out of `removable`.
 */
export function removeUnreferencedFiles(
  directory: string,
  manifest: StoredManifest | undefined,
  removable: Set<string>,
  staleMs: number,
): void {
  const keep = new Set<string>(manifest === undefined ? [] : storedFileEntries(manifest).map((entry) => entry.name));
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch {
    return;
  }
  const present = new Set(names);
  for (const name of removable) if (!present.has(name)) removable.delete(name);
  const staleBefore = Date.now() - staleMs;
  for (const name of names) {
    if (!ownedFilePattern.test(name) || keep.has(name)) continue;
    if (!removable.has(name)) {
      try {
        if (statSync(join(directory, name)).mtimeMs >= staleBefore) continue;
      } catch {
        continue;
      }
    }
    try {
      rmSync(join(directory, name), { force: true });
      removable.delete(name);
    } catch {
      // Left for later.
    }
  }
}

/** Removes exactly `names` (best effort): the files of one failed commit. */
export function removeFiles(directory: string, names: Iterable<string>): void {
  for (const name of names) {
    try {
      rmSync(join(directory, name), { force: true });
    } catch {
      // Left for a later clean-up, once it is older than the stale time.
    }
  }
}
