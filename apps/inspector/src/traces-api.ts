import { randomBytes } from "node:crypto";
import { rebuildModelContent, type ModelContent } from "./rebuild-model-content.js";
import type { ReadOnlyPort } from "./read-only-port.js";
import {
  applyQueryStorage,
  queryHashPrefix,
  type KnowledgeGapOptions,
  type KnowledgeGapReport,
  type StoredToolInvocation,
  type TraceListQuery,
} from "@lookup-knowledge/trace-store";
import { fallbackReasons, isFallbackReason, parsePointInTime, pointInTimeForms } from "@lookup-knowledge/core";
import { InspectorRequestError } from "./inspector-request-error.js";

/**
 * What the inspector reads recorded lookups from: a durable trace store's `list` and `get`,
 * and for the Gaps view its `knowledgeGaps` (without it, `GET /api/gaps` answers `gaps_unavailable`).
 */
export interface TraceReader {
  list(query?: TraceListQuery): Promise<StoredToolInvocation[]>;
  get(id: string): Promise<StoredToolInvocation | undefined>;
  knowledgeGaps?(options: KnowledgeGapOptions): Promise<KnowledgeGapReport>;
}

/** One row of the Traces view. */
export interface TraceRow {
  id: string;
  createdAt: string;
  /** The query as stored: its text, or its keyed hash when `queryIsHash`. */
  query: string;
  queryIsHash: boolean;
  found: boolean;
  retrievalLayer: string;
  fallbackReason: string | null;
  evidenceCount: number;
  durationMs: number;
}

/** The answer of `GET /api/traces`: one page of rows, and whether a later page has more. */
export interface TracePage {
  records: TraceRow[];
  /** From 1. */
  page: number;
  pageSize: number;
  hasMore: boolean;
}

/**
 * The answer of `GET /api/traces/:id`: the record as stored (errors redacted), whether its query
 * fields hold a keyed hash, and per evidence block the content the model read when the index
 * can give it back.
 */
export interface TraceDetail extends StoredToolInvocation {
  queryIsHash: boolean;
  modelContent: ModelContent[];
}

/** The most rows one page holds, and the deepest a page may reach. */
const maxPageSize = 200;
const maxDepth = 10_000;

/**
 * `GET /api/traces`: recorded lookups, newest first, with the filters of `lookup-knowledge
 * traces` (`since`, `noEvidence`, `reason`, `query`) and paging (`page` from 1, `pageSize`).
 */
export async function listTraces(
  reader: TraceReader,
  parameters: URLSearchParams,
  options: { queryIsHash: boolean; now?: Date },
): Promise<TracePage> {
  const page = wholeNumber(parameters, "page", 1, 1, maxDepth);
  const pageSize = wholeNumber(parameters, "pageSize", 20, 1, maxPageSize);
  if (page * pageSize > maxDepth) {
    throw invalid(`page ${page} of ${pageSize} rows reaches past the ${maxDepth} newest lookups; narrow the filters instead.`);
  }
  const since = parameters.get("since")?.trim();
  const reason = parameters.get("reason")?.trim();
  const query = parameters.get("query")?.trim();
  const noEvidence = parameters.get("noEvidence");
  if (reason && !isFallbackReason(reason)) {
    throw invalid(`reason must be one of ${fallbackReasons.join(", ")}, got ${JSON.stringify(reason.slice(0, 40))}.`);
  }
  if (noEvidence !== null && noEvidence !== "true" && noEvidence !== "false") {
    throw invalid(`noEvidence must be true or false, got ${JSON.stringify(noEvidence.slice(0, 20))}.`);
  }
  const records = await reader.list({
    ...(since ? { since: readSince(since, options.now ?? new Date()) } : {}),
    ...(noEvidence === "true" ? { found: false } : {}),
    ...(reason ? { fallbackReason: reason } : {}),
    ...(query ? { queryText: query } : {}),
    limit: page * pageSize + 1,
  });
  const rows = records
    .slice((page - 1) * pageSize, page * pageSize)
    .map((record) => traceRow(shownRecord(record, options.queryIsHash), options.queryIsHash));
  return { records: rows, page, pageSize, hasMore: records.length > page * pageSize };
}

/**
 * `GET /api/traces/:id`: one recorded lookup whole, with `queryIsHash` saying what its query
 * fields hold and `modelContent`, per evidence block, the exact content the model read when it
 * can be rebuilt from the index.
 */
export async function getTrace(
  reader: TraceReader,
  id: string,
  options: { queryIsHash: boolean; redact: (text: string) => string; port: ReadOnlyPort },
): Promise<TraceDetail> {
  const stored = await reader.get(id);
  if (!stored) {
    throw new InspectorRequestError({
      status: 404,
      code: "not_found",
      message: `No recorded lookup has the id ${JSON.stringify(id.slice(0, 80))}.`,
    });
  }
  const record = shownRecord(stored, options.queryIsHash);
  const details = record.retrievalDetails;
  return {
    ...record,
    error: record.error === null ? null : options.redact(record.error),
    retrievalDetails: {
      ...details,
      attempts: details.attempts.map((attempt) => (attempt.error ? { ...attempt, error: options.redact(attempt.error) } : attempt)),
    },
    queryIsHash: storedAsHash(record, options.queryIsHash),
    // What the model read, rebuilt from the index and checked against the trace's digests.
    modelContent: await rebuildModelContent(options.port, details.evidence),
  };
}

/**
 * Whether a record's query fields hold a keyed hash: decided per record by the hash's prefix
 * (records written under another `traces.store-query` keep theirs), and always under the
 * hash setting, so a text is never shown where hashes are asked for.
 */
function storedAsHash(record: StoredToolInvocation, hashSetting: boolean): boolean {
  return hashSetting || record.query.startsWith(queryHashPrefix);
}

/**
 * What records kept as text are hashed with when the setting is now `hash` and the store handed
 * them out as text (the durable store hashes them itself, with the folder's key; another store
 * may not): this process's own random key (a store's key is not the inspector's to read), so
 * their text is never shown; their hashes match no stored one.
 */
const textRecordKey = randomBytes(32).toString("hex");

/**
 * The record as the page may see it: under the hash setting, one kept as text before it is
 * hashed as the store now keeps queries (query, transformed query, L0 terms, hit reasons'
 * terms and errors), where it was shown whole and labelled a hash.
 */
function shownRecord(record: StoredToolInvocation, hashSetting: boolean): StoredToolInvocation {
  if (!hashSetting || record.query.startsWith(queryHashPrefix)) return record;
  return { ...record, ...applyQueryStorage(record, "hash", textRecordKey) };
}

function traceRow(record: StoredToolInvocation, queryIsHash: boolean): TraceRow {
  return {
    id: record.id,
    createdAt: record.createdAt,
    query: record.query,
    queryIsHash: storedAsHash(record, queryIsHash),
    found: record.found,
    retrievalLayer: record.retrievalLayer,
    fallbackReason: record.fallbackReason,
    evidenceCount: record.evidenceCount,
    durationMs: record.durationMs,
  };
}

/** The `since` filter, read as `traces --since` reads it (core's `parsePointInTime`). */
function readSince(value: string, now: Date): Date {
  const since = parsePointInTime(value, now);
  if (!since) throw invalid(`since must be ${pointInTimeForms}, got ${JSON.stringify(value.slice(0, 40))}.`);
  return since;
}

function wholeNumber(parameters: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const raw = parameters.get(name);
  if (raw === null || raw === "") return fallback;
  const value = Number(raw);
  if (!/^\d{1,6}$/.test(raw) || value < min || value > max) {
    throw invalid(`${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw.slice(0, 20))}.`);
  }
  return value;
}

function invalid(message: string): InspectorRequestError {
  return new InspectorRequestError({ status: 400, code: "invalid_request", message });
}
