/**
 * Where an `ingestFolder` run is; reported when a phase starts, after each parsed file and
 * after each written batch.
 *
 * - `scan`: listing the files.
 * - `parse`: reading and parsing; `filesDone` of `filesTotal` files are done.
 * - `write`: writing the chunks of the parsed files; `chunksWritten` of `chunksTotal` are written.
 * - `commit`: every chunk is written; the store is being committed (`writer.commit()`, when it
 *   has one) and the manifest written. From here `signal` no longer stops the run.
 * - `done`: the store is committed and the manifest written.
 */
export interface IngestProgress {
  phase: "scan" | "parse" | "write" | "commit" | "done";
  filesTotal: number;
  filesDone: number;
  /** Chunks to write in this run: 0 until parsing is over. */
  chunksTotal: number;
  chunksWritten: number;
}
