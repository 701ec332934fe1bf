/** Where an `ingestFolder` run is; reported after each parsed file and each written batch. */
export interface IngestProgress {
  phase: "scan" | "parse" | "write" | "done";
  filesTotal: number;
  filesDone: number;
  chunksWritten: number;
}
