import { sql } from "drizzle-orm";
import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import type { RetrievalDetails } from "../record/retrieval-details.js";
import type { GapFields } from "./gap-fields.js";

/**
 * The `tool_invocation` table: one row per `lookup_knowledge` call (R27). The same Postgres
 * schema serves PGlite and PostgreSQL. Change it here, then run `pnpm --filter
 * @lookup-knowledge/trace-store db:generate` and commit the new migration.
 */
export const toolInvocationTable = pgTable(
  "tool_invocation",
  {
    id: text("id").primaryKey(),
    toolName: text("tool_name").notNull(),
    /** The query as the tool received it, or its keyed hash (`hmac-sha256:<hex>`). */
    query: text("query").notNull(),
    /** The query the first L1 request used, or its keyed hash. */
    transformedQuery: text("transformed_query").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
    durationMs: doublePrecision("duration_ms").notNull(),
    found: boolean("found").notNull(),
    evidenceStatus: text("evidence_status").notNull(),
    retrievalLayer: text("retrieval_layer").notNull(),
    fallbackReason: text("fallback_reason"),
    candidateCount: integer("candidate_count").notNull(),
    evidenceCount: integer("evidence_count").notNull(),
    error: text("error"),
    retrievalDetails: jsonb("retrieval_details").$type<RetrievalDetails>().notNull(),
    /** When the row reached the database (added by migration 0001; rows older than it hold that migration's time). */
    recordedAt: timestamp("recorded_at", { withTimezone: true, mode: "date" }).default(sql`now()`),
    /**
     * What the gaps report reads of a lookup (issue 37 item 5), set by the database from
     * `retrieval_details` as the row is written (migration 0002's trigger, for every writer;
     * null in rows stored before it, which the report derives as it reads them). See `GapFields`.
     */
    gapFields: jsonb("gap_fields").$type<GapFields>(),
  },
  (table) => [
    // Every read is a time range, newest first; the other indexes serve its common filters.
    index("tool_invocation_created_at_idx").on(table.createdAt.desc()),
    index("tool_invocation_found_created_at_idx").on(table.found, table.createdAt.desc()),
    index("tool_invocation_fallback_reason_created_at_idx")
      .on(table.fallbackReason, table.createdAt.desc())
      .where(sql`${table.fallbackReason} is not null`),
  ],
);
