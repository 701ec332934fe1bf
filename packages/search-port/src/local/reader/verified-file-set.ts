import { closeSync, fstatSync } from "node:fs";
import type { BlockHash } from "../format/block-checksums.js";
import { checkFileEntry } from "../format/check-file-entry.js";
import type { IndexFileEntry, IndexFileKind, IndexManifest } from "../format/index-manifest.js";
import { openExistingFile } from "../format/open-existing-file.js";
import { VerifiedFile } from "../format/verified-file.js";

/** The data files of one committed generation as they are opened, each a `VerifiedFile` checked against its block checksums as it is read. */
export class VerifiedFileSet {
  /** Every file opened so far (closed together when the generation cannot be opened). */
  readonly opened: VerifiedFile[] = [];

  constructor(
    private readonly directory: string,
    private readonly manifest: IndexManifest,
    private readonly checksums: Map<IndexFileKind, Buffer>,
    private readonly hash: BlockHash,
  ) {}

  /** Opens the file of `kind` the manifest lists, its size checked against the manifest. */
  open(kind: IndexFileKind): VerifiedFile {
    const entry = this.manifest.files[kind] as IndexFileEntry;
    const descriptor = openExistingFile(this.directory, entry.name);
    try {
      checkFileEntry(this.directory, entry, fstatSync(descriptor).size, undefined);
    } catch (error) {
      closeSync(descriptor);
      throw error;
    }
    const file = new VerifiedFile(
      descriptor,
      this.directory,
      entry.name,
      entry.bytes,
      this.checksums.get(kind) ?? Buffer.alloc(0),
      this.hash,
    );
    this.opened.push(file);
    return file;
  }

  closeAll(): void {
    for (const file of this.opened) file.close();
  }
}
