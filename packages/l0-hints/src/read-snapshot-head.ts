import type { L0HintsErrorCode } from "./l0-hints-error-code.js";
import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { l0SnapshotVersion, type SnapshotHead, type SnapshotSectionName } from "./l0-snapshot-layout.js";

export const invalid = (what: string) =>
  new LookupKnowledgeError<L0HintsErrorCode>({ code: "invalid_l0_snapshot", message: `the L0 snapshot is damaged: ${what}` });

/**
 * The head of a snapshot, its shape checked by hand (no zod on the query path), and where its
 * sections start. Checks what the restore relies on; a value of the wrong type throws
 * `invalid_l0_snapshot`.
 */
export function readSnapshotHead(snapshot: Uint8Array): { head: SnapshotHead; dataStart: number } {
  if (!(snapshot instanceof Uint8Array) || snapshot.length < 4) throw invalid("shorter than its head");
  const headLength = new DataView(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength).getUint32(0, true);
  if (4 + headLength > snapshot.length) throw invalid("its head runs past its end");
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(snapshot.subarray(4, 4 + headLength)));
  } catch {
    throw invalid("its head is not JSON");
  }
  const head = value as SnapshotHead;
  if (head === null || typeof head !== "object") throw invalid("its head is not an object");
  if (typeof head.version !== "number") throw invalid("no layout version");
  // A head of another version may have another shape: the caller reports it as stale, not damaged.
  if (head.version !== l0SnapshotVersion) return { head, dataStart: 0 };
  const lengths = (list: unknown): boolean =>
    Array.isArray(list) &&
    list.every((pair) => Array.isArray(pair) && typeof pair[0] === "string" && Array.isArray(pair[1]) && pair[1].every(Number.isInteger));
  if (typeof head.analyzer !== "string" || head.settings === null || typeof head.settings !== "object") throw invalid("settings");
  if (!Number.isInteger(head.maxTermEntries) || typeof head.hasSingleUnitCjkTerms !== "boolean") throw invalid("term settings");
  if (!strings(head.domains)) throw invalid("domains");
  if (!strings(head.phraseKeys) || !strings(head.cjkKeys) || !strings(head.spellings)) throw invalid("term keys");
  if (!lengths(head.phraseLengths) || !lengths(head.cjkLengths)) throw invalid("term lengths");
  const rulesFine =
    Array.isArray(head.titleRules) &&
    head.titleRules.every(
      (pair) =>
        Array.isArray(pair) &&
        typeof pair[0] === "string" &&
        Array.isArray(pair[1]) &&
        pair[1].every((rule) => Array.isArray(rule) && strings(rule[0]) && Number.isInteger(rule[1])),
    );
  if (!rulesFine) throw invalid("title rules");
  if (head.sections === null || typeof head.sections !== "object") throw invalid("sections");
  return { head, dataStart: Math.ceil((4 + headLength) / 8) * 8 };
}

/** Whether a value is an array of strings. */
export function strings(list: unknown): boolean {
  return Array.isArray(list) && list.every((item) => typeof item === "string");
}

const widths = { i32: 4, f64: 8, u8: 1 } as const;

/**
 * Reads a typed section: a view of the snapshot's memory when it is aligned for the type (the
 * agent tool's file is laid out so), else a copy (a Node Buffer at an odd offset of a pool).
 */
export function snapshotSectionReader(snapshot: Uint8Array, head: SnapshotHead, dataStart: number) {
  return (name: SnapshotSectionName, kind: keyof typeof widths): Int32Array | Float64Array | Uint8Array => {
    const place: unknown = head.sections[name];
    if (!Array.isArray(place) || !Number.isSafeInteger(place[0]) || !Number.isSafeInteger(place[1])) throw invalid(`section ${name}`);
    const [offset, length] = place as [number, number];
    const start = dataStart + offset;
    const width = widths[kind];
    if (offset < 0 || length < 0 || start + length > snapshot.length || length % width !== 0) throw invalid(`section ${name}`);
    let buffer: ArrayBufferLike = snapshot.buffer;
    let byteOffset = snapshot.byteOffset + start;
    if (byteOffset % width !== 0) {
      buffer = new ArrayBuffer(length);
      new Uint8Array(buffer).set(snapshot.subarray(start, start + length));
      byteOffset = 0;
    }
    const count = length / width;
    return kind === "i32"
      ? new Int32Array(buffer, byteOffset, count)
      : kind === "f64"
        ? new Float64Array(buffer, byteOffset, count)
        : new Uint8Array(buffer, byteOffset, count);
  };
}
