import { checksummedKinds } from "../format/block-checksums.js";
import { HashedFileWriter, writeWholeFile } from "../format/hashed-file-writer.js";
import { generationFileName } from "../format/index-manifest.js";
import type { IndexFileEntry, IndexFileKind } from "../format/index-manifest.js";

/**
 * The data files of one generation as a commit writes them: named after the generation and
 * commit id, each one's manifest entry and block checksums kept as it is finished, and every
 * file created added to `created` (also when writing it fails), so a failed commit removes
 * exactly those.
 */
export class GenerationFiles {
  /** The manifest entries of the files finished so far. */
  readonly entries: Partial<Record<IndexFileKind, IndexFileEntry>> = {};
  private readonly blocks: Partial<Record<IndexFileKind, Buffer>> = {};

  constructor(
    readonly directory: string,
    private readonly generation: number,
    private readonly commitId: string,
    private readonly created: string[],
  ) {}

  /** Writes the file of `kind` whole from `data`. */
  async writeWhole(kind: IndexFileKind, data: Uint8Array[]): Promise<void> {
    const written = await writeWholeFile(this.directory, this.name(kind), data, this.created);
    this.entries[kind] = written.entry;
    this.blocks[kind] = written.blocks;
  }

  /** Creates the file of `kind` to be written piece by piece; `finish` it, or abandon it on failure. */
  create(kind: IndexFileKind): Promise<HashedFileWriter> {
    return HashedFileWriter.create(this.directory, this.name(kind), this.created);
  }

  /** Finishes the file of `kind` made by `create`. */
  async finish(kind: IndexFileKind, writer: HashedFileWriter): Promise<void> {
    this.entries[kind] = await writer.finish();
    this.blocks[kind] = writer.blockChecksums();
  }

  /** Last: the block checksums of all the files above, in the order `checksummedKinds` lists. */
  async writeBlockChecksums(): Promise<void> {
    const checksums = checksummedKinds.flatMap((kind) => (this.blocks[kind] === undefined ? [] : [this.blocks[kind]]));
    this.entries.blocks = (await writeWholeFile(this.directory, this.name("blocks"), checksums, this.created)).entry;
  }

  private name(kind: IndexFileKind): string {
    return generationFileName(this.generation, this.commitId, kind);
  }
}
