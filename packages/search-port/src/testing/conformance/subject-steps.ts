import assert from "node:assert/strict";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import type { PortConformanceFactory, PortConformanceSubject } from "../port-conformance-subject.js";

/** How long a check waits for an eventually consistent store (one with `settle`) to agree. */
const eventualWindowMs = 60_000;
const eventualPollMs = 1_000;

/** Upserts copies of the records, then commits and settles on `recordCount` records. */
export async function write(subject: PortConformanceSubject, records: readonly KnowledgeRecord[], recordCount: number): Promise<void> {
  await subject.writer.upsert(records.map((record) => ({ ...record, metadata: structuredClone(record.metadata) })));
  await commitAndSettle(subject, recordCount);
}

/** Commits the writer's writes (when it stages them) and waits until the store holds `recordCount` records (when it is eventually consistent). */
export async function commitAndSettle(subject: PortConformanceSubject, recordCount: number): Promise<void> {
  await subject.writer.commit?.();
  await subject.settle?.({ recordCount });
}

/** Runs `body` on a fresh store, and closes it after. */
export async function withSubject(
  makePort: PortConformanceFactory,
  body: (subject: PortConformanceSubject) => Promise<void>,
): Promise<void> {
  const subject = await makePort();
  try {
    await body(subject);
  } finally {
    await subject.close?.();
  }
}

/**
 * Runs `assertion`; for an eventually consistent store (one with `settle`), retries a failed
 * assertion for up to a minute before failing with its last error.
 */
export async function eventually(subject: PortConformanceSubject, assertion: () => Promise<void>): Promise<void> {
  if (subject.settle === undefined) {
    await assertion();
    return;
  }
  const deadline = Date.now() + eventualWindowMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (!(error instanceof assert.AssertionError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, eventualPollMs));
    }
  }
}
