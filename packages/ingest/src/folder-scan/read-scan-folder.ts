import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { FolderScanState, ScanPath } from "./folder-scan-state.js";
import { notRegularFile } from "./not-regular-file.js";

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

/**
 * Reads one folder of the scan: its wanted files go to `files`, its folders (unless pruned) to
 * `folders`, its symbolic links to `links`, and what cannot be read (a name that is not UTF-8,
 * a FIFO, a socket, a device) to `skipped`.
 */
export async function readScanFolder(state: FolderScanState, folder: ScanPath): Promise<void> {
  const { wanted, prunedFolder, files, skipped, sourceOfRealPath } = state;
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
        state.visited.add(path);
        state.folders.push({ path, source });
      }
    } else if (entry.isSymbolicLink()) {
      state.links.push({ path, source });
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
}
