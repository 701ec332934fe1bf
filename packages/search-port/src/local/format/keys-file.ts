import { CorruptIndexError } from "../errors/corrupt-index-error.js";
import type { SnapshotKeys } from "../snapshot/snapshot-keys.js";
import type { VerifiedFile } from "./verified-file.js";

/** Slots whose ids `eachId` and `eachDocId` read at a time (with their bytes, some 100 KB to 1 MB). */
const scanSlots = 16_384;

/**
 * The keys file of format 4, for `count` slots:
 *   u32 idEnds[count]      end of each record id in the id bytes
 *   u32 docIdEnds[count]   end of each document id in the document id bytes
 *   u8  docIdNull[count]   1 where the document id is null
 *   the UTF-8 bytes of the record ids, one after another
 *   the UTF-8 bytes of the document ids, one after another
 * so one slot's ids are two small positional reads.
 */
export function encodeKeys(ids: readonly string[], docIds: ReadonlyArray<string | null>): Uint8Array[] {
  const count = ids.length;
  const idEnds = new Uint32Array(count);
  const docIdEnds = new Uint32Array(count);
  const docIdNull = new Uint8Array(count);
  const idParts: Buffer[] = [];
  const docIdParts: Buffer[] = [];
  let idBytes = 0;
  let docIdBytes = 0;
  for (let slot = 0; slot < count; slot += 1) {
    const id = Buffer.from(ids[slot] as string, "utf8");
    idParts.push(id);
    idBytes += id.length;
    idEnds[slot] = idBytes;
    const docId = docIds[slot] ?? null;
    if (docId === null) docIdNull[slot] = 1;
    else {
      const bytes = Buffer.from(docId, "utf8");
      docIdParts.push(bytes);
      docIdBytes += bytes.length;
    }
    docIdEnds[slot] = docIdBytes;
    if (idBytes > 0xffffffff || docIdBytes > 0xffffffff) throw new RangeError("the record ids of one index exceed 4 GB");
  }
  return [
    new Uint8Array(idEnds.buffer),
    new Uint8Array(docIdEnds.buffer),
    docIdNull,
    Buffer.concat(idParts, idBytes),
    Buffer.concat(docIdParts, docIdBytes),
  ];
}

/** The keys of a format-4 generation, read from its keys file slot by slot. */
export class FileKeys implements SnapshotKeys {
  private readonly idsAt: number;
  private readonly docIdsAt: number;
  private cached: { ids: string[]; docIds: Array<string | null> } | undefined;
  private readonly recent = new Map<number, string>();

  constructor(
    private readonly file: VerifiedFile,
    private readonly count: number,
  ) {
    const header = 9 * count;
    if (file.size < header) this.fail(`has ${file.size} bytes, fewer than the ${header} of its tables`);
    this.idsAt = header;
    const idBytes = count === 0 ? 0 : this.u32(4 * (count - 1));
    const docIdBytes = count === 0 ? 0 : this.u32(4 * (2 * count - 1));
    this.docIdsAt = header + idBytes;
    if (file.size !== header + idBytes + docIdBytes) {
      this.fail(`has ${file.size} bytes, its tables promise ${header + idBytes + docIdBytes}`);
    }
  }

  id(slot: number): string {
    const known = this.recent.get(slot);
    if (known !== undefined) return known;
    const ends = this.pair(0, slot);
    const id = this.text(this.idsAt, ends);
    // Ties between hits compare ids often; keep the last few thousand.
    if (this.recent.size >= 4096) this.recent.clear();
    this.recent.set(slot, id);
    return id;
  }

  docId(slot: number): string | null {
    if (this.file.read(8 * this.count + slot, 1)[0] === 1) return null;
    return this.text(this.docIdsAt, this.pair(this.count, slot));
  }

  arrays(): { ids: readonly string[]; docIds: ReadonlyArray<string | null> } {
    if (this.cached !== undefined) return this.cached;
    const { count } = this;
    const all = this.file.read(0, this.file.size);
    const view = new DataView(all.buffer);
    const decoder = new TextDecoder();
    const ids = new Array<string>(count);
    const docIds = new Array<string | null>(count);
    let idStart = 0;
    let docIdStart = 0;
    for (let slot = 0; slot < count; slot += 1) {
      const idEnd = view.getUint32(4 * slot, true);
      const docIdEnd = view.getUint32(4 * (count + slot), true);
      if (idEnd < idStart || docIdEnd < docIdStart) this.fail("has decreasing id offsets");
      ids[slot] = decoder.decode(all.subarray(this.idsAt + idStart, this.idsAt + idEnd));
      docIds[slot] =
        all[8 * count + slot] === 1 ? null : decoder.decode(all.subarray(this.docIdsAt + docIdStart, this.docIdsAt + docIdEnd));
      idStart = idEnd;
      docIdStart = docIdEnd;
    }
    this.cached = { ids, docIds };
    return this.cached;
  }

  eachId(visit: (id: string, slot: number) => void): void {
    if (this.cached !== undefined) {
      this.cached.ids.forEach((id, slot) => {
        visit(id, slot);
      });
      return;
    }
    this.eachText(0, this.idsAt, (text, slot) => visit(text as string, slot));
  }

  eachDocId(visit: (docId: string | null, slot: number) => void): void {
    if (this.cached !== undefined) {
      this.cached.docIds.forEach((docId, slot) => {
        visit(docId, slot);
      });
      return;
    }
    this.eachText(this.count, this.docIdsAt, visit);
  }

  /**
   * Visits each slot's text of the offsets table that begins at entry `table` (0: record ids,
   * `count`: document ids, null where marked so), whose bytes start at `bytesAt`: a window of
   * slots at a time, so a scan of a large segment holds neither the whole file nor its texts.
   */
  private eachText(table: number, bytesAt: number, visit: (text: string | null, slot: number) => void): void {
    const { count } = this;
    const decoder = new TextDecoder();
    let start = 0;
    for (let first = 0; first < count; first += scanSlots) {
      const slots = Math.min(scanSlots, count - first);
      const endBytes = this.file.read(4 * (table + first), 4 * slots);
      const ends = new DataView(endBytes.buffer, endBytes.byteOffset, endBytes.byteLength);
      const nulls = table === 0 ? undefined : this.file.read(8 * count + first, slots);
      const last = ends.getUint32(4 * (slots - 1), true);
      if (last < start || bytesAt + last > this.file.size) this.fail("has an id outside its bytes");
      const bytes = this.file.read(bytesAt + start, last - start);
      let at = 0;
      for (let index = 0; index < slots; index += 1) {
        const end = ends.getUint32(4 * index, true) - start;
        if (end < at || end > bytes.length) this.fail("has decreasing id offsets");
        visit(nulls?.[index] === 1 ? null : decoder.decode(bytes.subarray(at, end)), first + index);
        at = end;
      }
      start = last;
    }
  }

  /** Start and end of entry `slot` of the offsets table that begins at entry `table`. */
  private pair(table: number, slot: number): [number, number] {
    if (slot === 0) return [0, this.u32(4 * table)];
    const bytes = this.file.read(4 * (table + slot - 1), 8);
    const view = new DataView(bytes.buffer);
    return [view.getUint32(0, true), view.getUint32(4, true)];
  }

  private text(base: number, [start, end]: [number, number]): string {
    if (end < start || base + end > this.file.size) this.fail("has an id outside its bytes");
    return Buffer.from(this.file.read(base + start, end - start).buffer).toString("utf8");
  }

  private u32(position: number): number {
    return new DataView(this.file.read(position, 4).buffer).getUint32(0, true);
  }

  private fail(what: string): never {
    throw new CorruptIndexError({ directory: this.file.directory, reason: `${this.file.name} ${what}` });
  }
}
