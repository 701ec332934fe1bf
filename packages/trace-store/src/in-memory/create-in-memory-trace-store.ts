import type { InMemoryTraceStore } from "./in-memory-trace-store.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";

/**
 * A trace store in memory. `record` stores a copy synchronously (the returned promise is
 * already settled); a second record with the same id replaces the first in place, so a
 * retried write never duplicates a record.
 */
export function createInMemoryTraceStore(): InMemoryTraceStore {
  const records = new Map<string, ToolInvocationRecord>();
  return {
    record(invocation: ToolInvocationRecord): Promise<void> {
      try {
        records.set(invocation.id, structuredClone(invocation));
        return Promise.resolve();
      } catch (error) {
        return Promise.reject(error);
      }
    },
    list(): ToolInvocationRecord[] {
      return [...records.values()].map((record) => structuredClone(record));
    },
    get(id: string): ToolInvocationRecord | undefined {
      const record = records.get(id);
      return record === undefined ? undefined : structuredClone(record);
    },
    clear(): void {
      records.clear();
    },
    get size(): number {
      return records.size;
    },
  };
}
