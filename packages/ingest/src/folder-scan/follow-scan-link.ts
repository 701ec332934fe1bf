import type { Stats } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { relative, sep } from "node:path";
import type { FolderScanState, ScanPath } from "./folder-scan-state.js";
import { notRegularFile } from "./not-regular-file.js";

const notFollowed = "a symbolic link, not followed (links inside the root are followed with followSymlinks, or --follow-symlinks)";

/**
 * Looks at one symbolic link of the scan. With `followSymlinks`, a link whose real target is
 * inside the root is followed: a folder goes to `folders`, a file to `files`, each read once.
 * Any other link the scan would have read (broken, to something not a file, not followed,
 * outside the root, to a folder or file read already) goes to `skipped`, saying why.
 */
export async function followScanLink(state: FolderScanState, link: ScanPath): Promise<void> {
  const { realRoot, wanted, prunedFolder, skipped } = state;
  let target: string;
  let kind: Stats;
  try {
    target = await realpath(link.path);
    kind = await stat(target);
  } catch {
    if (wanted(link.source)) skipped.push({ source: link.source, reason: "a broken symbolic link (its target does not exist)" });
    return;
  }
  const isFolder = kind.isDirectory();
  if (isFolder ? prunedFolder(link.source) : !wanted(link.source)) return;
  if (!isFolder && !kind.isFile()) {
    skipped.push({ source: link.source, reason: `a symbolic link to ${notRegularFile(kind)}` });
    return;
  }
  if (!state.followSymlinks) {
    skipped.push({ source: link.source, reason: notFollowed });
    return;
  }
  if (target !== realRoot && !target.startsWith(realRoot + sep)) {
    skipped.push({ source: link.source, reason: `a symbolic link to ${target}, outside the root: not followed` });
    return;
  }
  const inside = relative(realRoot, target).split(sep).join("/") || ".";
  if (isFolder) {
    if (state.visited.has(target)) {
      skipped.push({
        source: link.source,
        reason: `a symbolic link to the folder ${inside}, which is read already (a loop or a second path): not followed`,
      });
      return;
    }
    state.visited.add(target);
    state.folders.push({ path: target, source: link.source });
    return;
  }
  const first = state.sourceOfRealPath.get(target);
  if (first !== undefined) {
    skipped.push({ source: link.source, reason: `a symbolic link to ${first}, which is read already: not read twice` });
    return;
  }
  state.files.push({ source: link.source, path: target });
  state.sourceOfRealPath.set(target, link.source);
}
