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
