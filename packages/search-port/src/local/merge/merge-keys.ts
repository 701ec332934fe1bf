import type { HashedFileWriter } from "../format/hashed-file-writer.js";
import { liveRuns } from "./live-runs.js";
import type { MergeSource } from "./merge-source.js";
import { TypedOutput } from "./typed-output.js";

/** A segment of a merge: its source and its deleted slots. */
export interface MergeInput {
  source: MergeSource;
  deleted: Uint8Array | undefined;
}

/**
 * Writes the keys file of the live records of `inputs`, in order (the layout `encodeKeys`
 * writes: id ends, document id ends, null marks, id bytes, document id bytes), each section
 * a pass over the segments' tables, the id bytes copied in runs.
 */
export async function writeMergedKeys(writer: HashedFileWriter, inputs: readonly MergeInput[]): Promise<void> {
  for (const table of ["idEnds", "docIdEnds"] as const) {
    const output = new TypedOutput(writer, (length) => new Uint32Array(length));
    let total = 0;
    for (const { source, deleted } of inputs) {
      const ends = source.keys[table];
      for (const [from, to] of liveRuns(source.count, deleted)) {
        for (let slot = from; slot < to; slot += 1) {
          total += (ends[slot] as number) - (slot === 0 ? 0 : (ends[slot - 1] as number));
          output.push(total);
        }
        await output.drain();
      }
      if (total > 0xffffffff) throw new RangeError("the record ids of one index exceed 4 GB");
    }
    await output.flush();
  }
  const marks = new TypedOutput(writer, (length) => new Uint8Array(length));
  for (const { source, deleted } of inputs) {
    for (const [from, to] of liveRuns(source.count, deleted)) {
      marks.pushAll(source.keys.docIdNull.subarray(from, to));
      await marks.drain();
    }
  }
  await marks.flush();
  for (const [which, table] of [
    ["ids", "idEnds"],
    ["docIds", "docIdEnds"],
  ] as const) {
    for (const { source, deleted } of inputs) {
      const ends = source.keys[table];
      for (const [from, to] of liveRuns(source.count, deleted)) {
        const start = from === 0 ? 0 : (ends[from - 1] as number);
        const end = ends[to - 1] as number;
        if (end > start) await writer.write(source.keyBytes(which, start, end));
      }
    }
  }
}
