// What a step wrote into a folder, seen from outside: the files before and after it, compared.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under `directory`: its path relative to the folder, size, inode and modification time. */
export function folderState(directory, under = directory, state = new Map()) {
  for (const entry of readdirSync(under, { withFileTypes: true })) {
    const path = join(under, entry.name);
    if (entry.isDirectory()) folderState(directory, path, state);
    else if (entry.isFile()) {
      const stats = statSync(path);
      state.set(relative(directory, path), { size: stats.size, inode: stats.ino, modifiedMs: stats.mtimeMs });
    }
  }
  return state;
}

/**
 * The bytes written between two states of a folder: a file that is new (by name, or the same
 * name on another inode, as a rename over it leaves) counts whole, a file that grew counts its
 * growth, one rewritten in place (same inode, modified, not grown) counts whole. `files` lists
 * each written file and how; `removed` the files gone.
 */
export function writtenBetween(before, after) {
  const files = [];
  for (const [path, now] of after) {
    const was = before.get(path);
    if (was === undefined) files.push({ path, bytes: now.size, how: "new" });
    else if (was.inode !== now.inode) files.push({ path, bytes: now.size, how: "replaced" });
    else if (now.size > was.size) files.push({ path, bytes: now.size - was.size, how: "grown" });
    else if (now.modifiedMs !== was.modifiedMs) files.push({ path, bytes: now.size, how: "rewritten" });
  }
  const removed = [...before.keys()].filter((path) => !after.has(path));
  return { bytes: files.reduce((sum, file) => sum + file.bytes, 0), files, removed };
}

/** The bytes this process has passed to write calls so far (Linux's /proc/self/io `wchar`), or undefined elsewhere. */
export function processWriteBytes() {
  if (!existsSync("/proc/self/io")) return undefined;
  const match = /^wchar:\s*(\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"));
  return match === null ? undefined : Number(match[1]);
}
