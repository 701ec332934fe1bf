import { buildToolInvocationRecord } from "../src/record/build-tool-invocation-record.js";
import type { ToolInvocationRecord } from "../src/record/tool-invocation-record.js";
import { foundResult, noEvidenceResult } from "./lookup-result-fixtures.js";

/**
 * A record for tests: even indexes found evidence after a low-quality fallback, odd ones
 * found nothing. `createdAt` is `base` plus `index` seconds, so each test reads its own
 * time window of a shared database.
 */
export function makeRecord(index: number, base: Date, overrides: Partial<ToolInvocationRecord> = {}): ToolInvocationRecord {
  const record = buildToolInvocationRecord({
    result: index % 2 === 0 ? foundResult() : noEvidenceResult(),
    id: `${base.getTime()}-${String(index).padStart(6, "0")}`,
    startedAt: new Date(base.getTime() + index * 1000),
    durationMs: 10 + index / 4,
  });
  return { ...record, ...overrides };
}

/** A time window nobody else uses: `year` and the next day. */
export function window(year: number): { base: Date; since: Date; until: Date } {
  const base = new Date(Date.UTC(year, 0, 1));
  return { base, since: base, until: new Date(base.getTime() + 86_400_000) };
}
