/**
 * A commit could not make its files durable. The writer that meets it writes nothing more:
 * a file whose sync failed may have lost its data though a later sync of it succeeds (Linux
 * reports a failed write-back once), and a segment flushed before the commit would be listed
 * again by the next one. `made`: the manifest was switched (readers see the commit) but the
 * folder holding its new name could not be synced, so a crash may still undo it.
 */
export class FilesNotSyncedError extends Error {
  constructor(directory: string, cause: unknown, made = false) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      made
        ? `A commit to the index at ${directory} was made, but the folder could not be synced after it (${why}): a crash may undo it, and this writer writes nothing more. Close it and open a new writer.`
        : `A commit to the index at ${directory} could not sync its new data files (${why}): it was not made, and this writer writes nothing more. Close it and open a new writer, which starts from the last commit.`,
      { cause },
    );
    this.name = "FilesNotSyncedError";
  }
}
