import type { ToolInvocationRecord } from "../src/record/tool-invocation-record.js";

/**
 * Writes one `tool_invocation` row with plain SQL, past the store's checks, as another
 * version or a hand edit could: the record's columns, and `details` (default: its own
 * retrieval details) as the stored JSON, whatever its shape; `json`, when given, is the stored
 * text itself (numbers JavaScript cannot write, such as 1e400).
 */
export async function insertRawRecord(
  sql: (text: string, parameters?: unknown[]) => Promise<unknown>,
  record: { [Column in keyof ToolInvocationRecord]: unknown },
  details: unknown = record.retrievalDetails,
  json: string = JSON.stringify(details),
): Promise<void> {
  await sql(
    `insert into tool_invocation (id, tool_name, query, transformed_query, created_at, duration_ms, found, evidence_status,
       retrieval_layer, fallback_reason, candidate_count, evidence_count, error, retrieval_details)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb)`,
    [
      record.id,
      record.toolName,
      record.query,
      record.transformedQuery,
      record.createdAt,
      record.durationMs,
      record.found,
      record.evidenceStatus,
      record.retrievalLayer,
      record.fallbackReason,
      record.candidateCount,
      record.evidenceCount,
      record.error,
      json,
    ],
  );
}
