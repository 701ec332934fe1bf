import { createHash } from "node:crypto";
import { truncateContent } from "@lookup-knowledge/postprocess";
import type { EvidenceSummary } from "@lookup-knowledge/trace-store";
import type { ReadOnlyPort } from "./read-only-port.js";

/** The content a model read for one block of a recorded lookup, rebuilt from the index. */
export type ModelContent =
  /** The chunk as the index holds it now, cut as the pack cut it, matches the recorded digest. */
  | { status: "exact"; text: string }
  /** The chunk changed (or is gone) since the lookup: what the model read cannot be rebuilt. */
  | { status: "changed"; reason: string }
  /** The record predates digests, or the store cannot read chunks back by id. */
  | { status: "unknown"; reason: string };

/**
 * For each evidence block of a recorded lookup, the exact content the model read: the chunk
 * read back by its evidence key (`fetchRecords`), cut with the pack's own `truncateContent`
 * to the recorded allotment when the budget cut it, and accepted only when its SHA-256 equals
 * the digest the trace kept (traces keep no evidence text, R28).
 */
export async function rebuildModelContent(port: ReadOnlyPort, evidence: readonly EvidenceSummary[]): Promise<ModelContent[]> {
  const packed = evidence.filter((block) => block.packed !== undefined);
  if (packed.length === 0) return evidence.map(() => ({ status: "unknown", reason: "this lookup was recorded without content digests" }));
  if (port.fetchRecords === undefined) {
    return evidence.map(() => ({ status: "unknown", reason: "this store cannot read chunks back by id" }));
  }
  const records = (await port.fetchRecords(evidence.map((block) => block.evidenceKey).slice(0, 100))) as Array<
    { content: string } | undefined
  >;
  return evidence.map((block, index) => {
    if (block.packed === undefined) return { status: "unknown", reason: "the block was not packed for the model" };
    const record = records[index];
    if (record === undefined) return { status: "changed", reason: "the chunk is no longer in the index" };
    const text = block.packed.truncated ? truncateContent(record.content, block.packed.allotment ?? block.packed.length) : record.content;
    const matches = createHash("sha256").update(text).digest("hex") === block.packed.sha256;
    return matches ? { status: "exact", text } : { status: "changed", reason: "the chunk changed since this lookup (re-ingested)" };
  });
}
