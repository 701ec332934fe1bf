import type { Dirent, Stats } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import picomatch from "picomatch";
import { notRegularFile } from "./not-regular-file.js";

/** A file to ingest: its posix path relative to the root, and the real path its bytes are read from. */
export interface ScannedFile {
  source: string;
  path: string;
}

/** What `scanFolder` found: the files to read, in path order, and the symbolic links it did not follow, with why. */
export interface FolderScan {
  files: ScannedFile[];
  skipped: Array<{ source: string; reason: string }>;
}

const notUtf8 = "its name is not valid UTF-8 (rename it to read it)";
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

/** A file name's text, or undefined when its bytes are not UTF-8. */
function utf8Name(bytes: Buffer): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const notFollowed = "a symbolic link, not followed (links inside the root are followed with followSymlinks, or --follow-symlinks)";

/**
 * Lists the files of `root` that match `include` and not `exclude` (globs relative to the
 * root, dot files included), in path order. Folders that `exclude` rules out are not read.
 *
 * Symbolic links are not followed by default: each link to a folder, and each link to a
 * file that `include` matches, is listed in `skipped` with the reason. With
 * `followSymlinks`, a link is followed only when its real target is inside the root; every
 * file and folder is read once, by its real path (a link to a file already found, or to a
 * folder already read, such as `sub/loop -> ..`, is skipped, saying so). An entry that is
 * neither a folder nor a regular file (a FIFO, a socket, a device), or a link to one, is
 * listed in `skipped` when `include` matches it, and never opened.
 */
export async function scanFolder(
  root: string,
  options: { include: string[]; exclude: string[]; followSymlinks: boolean },
): Promise<FolderScan> {
  const base = resolve(root);
  const realRoot = await realpath(base);
  const includedGlob = picomatch(options.include, { dot: true });
  const excludedGlob = picomatch(options.exclude, { dot: true });
  // The globs' regular expressions do not let `**` cross a folder name holding a line
  // terminator (CR, LF, U+2028, U+2029): such names are matched with U+FFFD in their place.
  const matchable = (source: string): string => source.replace(/[\r\n\u2028\u2029]/g, "\uFFFD");
  const included = (source: string): boolean => includedGlob(matchable(source));
  const excluded = (source: string): boolean => excludedGlob(matchable(source));
  const wanted = (source: string): boolean => included(source) && !excluded(source);
  // A folder is left out when a file directly inside it would be excluded whatever its name.
  const prunedFolder = (source: string): boolean => excluded(`${source}/\u0000`);

  const files: ScannedFile[] = [];
  const skipped: FolderScan["skipped"] = [];
  const sourceOfRealPath = new Map<string, string>();
  const visited = new Set<string>([realRoot]);
  const folders: Array<{ path: string; source: string }> = [{ path: realRoot, source: "" }];
  const links: Array<{ path: string; source: string }> = [];

  const readFolder = async (folder: { path: string; source: string }): Promise<void> => {
    let entries: Dirent<Buffer>[];
    try {
      // Names as bytes: one that is not UTF-8 would come back with U+FFFD and then not be found.
      entries = await readdir(folder.path, { withFileTypes: true, encoding: "buffer" });
    } catch {
      return; // A folder that cannot be listed (permissions, removed meanwhile) has no files to ingest.
    }
    for (const entry of entries) {
      const name = utf8Name(entry.name);
      const shown = name ?? entry.name.toString("utf8");
      const source = folder.source === "" ? shown : `${folder.source}/${shown}`;
      if (name === undefined) {
        // Its path cannot be written as a string this program could open again.
        if (entry.isDirectory() ? !prunedFolder(source) : wanted(source)) skipped.push({ source, reason: notUtf8 });
        continue;
      }
      const path = join(folder.path, name);
      if (entry.isDirectory()) {
        if (!prunedFolder(source)) {
          visited.add(path);
          folders.push({ path, source });
        }
      } else if (entry.isSymbolicLink()) {
        links.push({ path, source });
      } else if (entry.isFile()) {
        if (wanted(source) && !sourceOfRealPath.has(path)) {
          files.push({ source, path });
          sourceOfRealPath.set(path, source);
        }
      } else if (wanted(source)) {
        // A FIFO would block the read forever; a socket or a device is no document either.
        skipped.push({ source, reason: notRegularFile(entry) });
      }
    }
  };

  const followLink = async (link: { path: string; source: string }): Promise<void> => {
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
    if (!options.followSymlinks) {
      skipped.push({ source: link.source, reason: notFollowed });
      return;
    }
    if (target !== realRoot && !target.startsWith(realRoot + sep)) {
      skipped.push({ source: link.source, reason: `a symbolic link to ${target}, outside the root: not followed` });
      return;
    }
    const inside = relative(realRoot, target).split(sep).join("/") || ".";
    if (isFolder) {
      if (visited.has(target)) {
        skipped.push({
          source: link.source,
          reason: `a symbolic link to the folder ${inside}, which is read already (a loop or a second path): not followed`,
        });
        return;
      }
      visited.add(target);
      folders.push({ path: target, source: link.source });
      return;
    }
    const first = sourceOfRealPath.get(target);
    if (first !== undefined) {
      skipped.push({ source: link.source, reason: `a symbolic link to ${first}, which is read already: not read twice` });
      return;
    }
    files.push({ source: link.source, path: target });
    sourceOfRealPath.set(target, link.source);
  };

  // Regular folders first, so a file is known by its own path before any link to it; then links in path order.
  for (;;) {
    const folder = folders.pop();
    if (folder !== undefined) {
      await readFolder(folder);
      continue;
    }
    if (links.length === 0) break;
    links.sort((left, right) => compareStrings(right.source, left.source));
    await followLink(links.pop() as { path: string; source: string });
  }
  files.sort((left, right) => compareStrings(left.source, right.source));
  skipped.sort((left, right) => compareStrings(left.source, right.source));
  return { files, skipped };
}

function compareStrings(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
