import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import picomatch from "picomatch";
import { compareStrings } from "../keyed-records/compare-strings.js";
import type { FolderScan } from "./folder-scan.js";
import type { FolderScanState, ScanPath } from "./folder-scan-state.js";
import { followScanLink } from "./follow-scan-link.js";
import { readScanFolder } from "./read-scan-folder.js";

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

  const state: FolderScanState = {
    realRoot,
    followSymlinks: options.followSymlinks,
    wanted: (source) => included(source) && !excluded(source),
    // A folder is left out when a file directly inside it would be excluded whatever its name.
    prunedFolder: (source) => excluded(`${source}/\u0000`),
    files: [],
    skipped: [],
    sourceOfRealPath: new Map<string, string>(),
    visited: new Set<string>([realRoot]),
    folders: [{ path: realRoot, source: "" }],
    links: [],
  };
  const { folders, links, files, skipped } = state;

  // Regular folders first, so a file is known by its own path before any link to it; then links in path order.
  for (;;) {
    const folder = folders.pop();
    if (folder !== undefined) {
      await readScanFolder(state, folder);
      continue;
    }
    if (links.length === 0) break;
    links.sort((left, right) => compareStrings(right.source, left.source));
    await followScanLink(state, links.pop() as ScanPath);
  }
  files.sort((left, right) => compareStrings(left.source, right.source));
  skipped.sort((left, right) => compareStrings(left.source, right.source));
  return { files, skipped };
}
