import type { FileRecords } from "../format/file-records.js";
import type { RecordFile } from "../format/record-file.js";
import { fileSlotOf } from "../snapshot/index-snapshot.js";
import type { SlotMap } from "./slot-map.js";

/**
 * The committed records of a composed snapshot (`composeSnapshot`), read through the files of
 * the parts that hold them. Its slots are the composed slots: slot `s` is the live record
 * `s`, read from its part's file (`records.file`, at the part's `fileSlots`). A record a part
 * holds in memory (a writer's uncommitted segment) has no file: the composed `RecordTable`
 * sends those to its `memory`, and asking this for one is an error.
 */
export class SegmentedRecords implements RecordFile {
  readonly count: number;
  private metadataCache: Array<Record<string, unknown>> | undefined;

  constructor(private readonly slots: SlotMap) {
    this.count = slots.count;
  }

  content(slot: number): string {
    const { file, fileSlot } = this.at(slot);
    return file.content(fileSlot);
  }

  metadata(slot: number): Record<string, unknown> {
    const { file, fileSlot } = this.at(slot);
    return file.metadata(fileSlot);
  }

  /** The generation's files that hold record `slot`, through its part's own `locate` (so runs of a part's records are copied in bulk). */
  locate(slot: number): { file: FileRecords; slot: number } {
    const { file, fileSlot } = this.at(slot);
    return file.locate(fileSlot);
  }

  /**
   * Every live record's metadata by composed slot, each part's file parsed once (its own
   * `allMetadata`) and shared: callers must not change it. A slot whose record a part holds
   * in memory has an empty object here (read it from the table's `memory`).
   */
  allMetadata(): Array<Record<string, unknown>> {
    if (this.metadataCache !== undefined) return this.metadataCache;
    const all = new Array<Record<string, unknown>>(this.count);
    this.slots.parts.forEach((part, index) => {
      const live = this.slots.liveCount(index);
      if (live === 0) return;
      const { file, fileSlots } = part.snapshot.records;
      const parsed = file?.allMetadata();
      const base = this.slots.bases[index] as number;
      for (let at = 0; at < live; at += 1) {
        const fileSlot = fileSlots[this.slots.partSlot(index, base + at)] ?? -1;
        all[base + at] = (fileSlot >= 0 ? parsed?.[fileSlot] : undefined) ?? {};
      }
    });
    this.metadataCache = all;
    return all;
  }

  /** Closes every part's file (each once), also when one fails; the first failure is thrown after. */
  close(): void {
    const files = new Set<RecordFile>();
    for (const part of this.slots.parts) if (part.snapshot.records.file !== undefined) files.add(part.snapshot.records.file);
    let failure: unknown;
    for (const file of files) {
      try {
        file.close();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }

  private at(slot: number): { file: RecordFile; fileSlot: number } {
    if (!(slot >= 0 && slot < this.count)) throw new RangeError(`SegmentedRecords: slot ${slot} is outside 0..${this.count - 1}`);
    const part = this.slots.partOf(slot);
    const { records } = (this.slots.parts[part] as (typeof this.slots.parts)[number]).snapshot;
    const file = records.file;
    const fileSlot = fileSlotOf(records, this.slots.partSlot(part, slot));
    if (file === undefined || fileSlot < 0) {
      throw new RangeError(`SegmentedRecords: record ${slot} is held in memory by its segment, not in a file`);
    }
    return { file, fileSlot };
  }
}
