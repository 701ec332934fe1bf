import { readStoredDetails } from "../database/rows/read-stored-details.js";
import { sanitizeToolInvocationRecord } from "../database/rows/sanitize-tool-invocation-record.js";
import type { StoredToolInvocation } from "../database/rows/stored-tool-invocation.js";
import type { ToolInvocationRecord } from "../record/tool-invocation-record.js";

/**
 * A spooled record as a read from the database gives it back once it is there: sanitised as
 * its insert would, its time in ISO 8601 with milliseconds, its details read by
 * `readStoredDetails`; `recordedAt` is null (it has not reached the database).
 */
export function storedFromSpool(record: ToolInvocationRecord): StoredToolInvocation {
  const stored = sanitizeToolInvocationRecord(record);
  return {
    id: stored.id,
    toolName: stored.toolName,
    query: stored.query,
    transformedQuery: stored.transformedQuery,
    createdAt: new Date(stored.createdAt).toISOString(),
    durationMs: stored.durationMs,
    found: stored.found,
    evidenceStatus: stored.evidenceStatus,
    retrievalLayer: stored.retrievalLayer,
    fallbackReason: stored.fallbackReason,
    candidateCount: stored.candidateCount,
    evidenceCount: stored.evidenceCount,
    error: stored.error,
    retrievalDetails: readStoredDetails(structuredClone(stored.retrievalDetails)),
    recordedAt: null,
  };
}
