import type { FolderScan, ScannedFile } from "./folder-scan.js";

/** A folder or a symbolic link met by the scan: its path on disk and its posix path relative to the root. */
export interface ScanPath {
  path: string;
  source: string;
}

/** What `scanFolder` knows while it reads the root: what it found, and what is left to read. */
export interface FolderScanState {
  /** The real path of the root. */
  realRoot: string;
  followSymlinks: boolean;
  /** Whether a file is to be ingested: `include` matches it and `exclude` does not. */
  wanted: (source: string) => boolean;
  /** Whether a folder is left out: a file directly inside it would be excluded whatever its name. */
  prunedFolder: (source: string) => boolean;
  files: ScannedFile[];
  skipped: FolderScan["skipped"];
  /** The source each real path was found as first, so a file is read once. */
  sourceOfRealPath: Map<string, string>;
  /** The real paths of the folders read or to be read, so a folder is read once. */
  visited: Set<string>;
  /** Folders still to read. */
  folders: ScanPath[];
  /** Symbolic links still to look at. */
  links: ScanPath[];
}
