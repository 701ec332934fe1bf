import { createHash, randomUUID } from "node:crypto";
import {
  defaultRagConfig,
  parseOptions,
  type EvidenceBlock,
  type LookupResult,
  type PackedBlock,
  type RetrievalAttempt,
} from "@lookup-knowledge/core";
import type { AttemptSummary } from "./attempt-summary.js";
import type { EvidenceSummary } from "./evidence-summary.js";
import type { RetrievalDetails } from "./retrieval-details.js";
import type { ToolInvocationRecord } from "./tool-invocation-record.js";
import { isWholeNumberOption, wholeNumberOption } from "../options/whole-number-option.js";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";

/** The longest evidence preview kept in a record, in UTF-16 code units, `…` included. */
const previewLength = 160;
/** The longest error text kept in a record. */
const errorLength = 500;
/** The longest received query kept, by default: core's default `rag.max-query-length`. */
const defaultMaxQueryLength = defaultRagConfig.maxQueryLength;
/** A given `maxQueryLength`: a whole number, 16 or more. */
const maxQueryLengthSchema = schemaOnDemand((z) => wholeNumberOption(z, 16));

/**
 * Summarises a `LookupResult` as one tool invocation record (R27): the hints, the layer,
 * every attempt with its filters, the fallback reason, the reference threshold the attempts
 * were held to, the counts, compact evidence
 * summaries, the rerank trace and the context pack's source lists.
 *
 * `query` is the query as the tool received it (`retrievalTrace.query.received`, before
 * normalisation), cut like the normalised query at `maxQueryLength` (default 1000, core's
 * default `rag.max-query-length`; the `…` that marks a cut included), with its whole length
 * in `retrievalDetails.receivedQueryLength` when it was cut; `transformedQuery` is the one the first L1 request used
 * (`retrievalTrace.query.transformed`). `error` is the given `error` (cut), else null.
 *
 * Evidence content is never copied (R28): each block keeps a preview of at most 160
 * characters. Error texts are cut at 500 characters. Lists and filters are copied, so the
 * record does not change when the result does.
 */
export function buildToolInvocationRecord(input: {
  result: LookupResult;
  /** Default `lookup_knowledge`. */
  toolName?: string;
  /** Default a random UUID. */
  id?: string;
  startedAt: Date;
  durationMs: number;
  /** Why the call failed outright, when it did; stored as `error`, else null. */
  error?: string;
  /** The longest received query kept, in UTF-16 code units (16 or more). Default 1000. */
  maxQueryLength?: number;
}): ToolInvocationRecord {
  const maxQueryLength =
    input.maxQueryLength === undefined
      ? defaultMaxQueryLength
      : isWholeNumberOption(input.maxQueryLength, 16)
        ? input.maxQueryLength
        : parseOptions(maxQueryLengthSchema(), input.maxQueryLength, "buildToolInvocationRecord.maxQueryLength");
  const { result } = input;
  const trace = result.retrievalTrace;
  const blocks: readonly EvidenceBlock[] = result.evidenceBlocks;
  const fallbackReason = trace.fallbackReason ?? null;
  const retrievalDetails = summarizeRetrieval(result, maxQueryLength);

  return {
    id: input.id ?? randomUUID(),
    toolName: input.toolName ?? "lookup_knowledge",
    query: cut(trace.query.received, maxQueryLength),
    transformedQuery: trace.query.transformed,
    createdAt: isoTime(input.startedAt),
    durationMs: finiteOrZero(input.durationMs),
    found: result.found,
    evidenceStatus: result.evidenceStatus,
    retrievalLayer: trace.retrievalLayer,
    fallbackReason,
    candidateCount: trace.candidateCount,
    evidenceCount: blocks.length,
    error: input.error === undefined ? null : cut(input.error, errorLength),
    retrievalDetails,
  };
}

/** The retrieval details of a record: copies of the trace's hints, attempts, rerank and context pack sources, and evidence summaries. */
function summarizeRetrieval(result: LookupResult, maxQueryLength: number): RetrievalDetails {
  const trace = result.retrievalTrace;
  const blocks: readonly EvidenceBlock[] = result.evidenceBlocks;
  const packedBlocks = new Map((result.found ? result.contextPack.blocks : []).map((block) => [block.evidenceKey, block]));
  const fallbackReason = trace.fallbackReason ?? null;

  const retrievalDetails: RetrievalDetails = {
    hints: {
      keywords: [...trace.hints.keywords],
      domains: [...trace.hints.domains],
      ...(trace.hints.otherDomains?.length ? { otherDomains: [...trace.hints.otherDomains] } : {}),
      entities: [...trace.hints.entities],
      titles: [...trace.hints.titles],
      entries: trace.hints.entries.map((entry) => ({
        id: entry.id,
        source: entry.source,
        ...(entry.title === undefined ? {} : { title: entry.title }),
        ...(entry.domain === undefined ? {} : { domain: entry.domain }),
      })),
    },
    retrievalLayer: trace.retrievalLayer,
    l1Enabled: trace.l1Enabled,
    attempts: trace.attempts.map(summarizeAttempt),
    fallbackReason,
    ...(Number.isFinite(trace.referenceThreshold) ? { referenceThreshold: trace.referenceThreshold } : {}),
    candidateCount: trace.candidateCount,
    evidenceCount: blocks.length,
    relevanceLevel: result.relevanceLevel,
    evidence: blocks.map((block) => summarizeEvidence(block, packedBlocks.get(block.evidenceKey))),
    rerank: result.found
      ? result.rerankTrace.entries.map((entry) => ({
          rank: entry.rank,
          evidenceKey: entry.evidenceKey,
          source: entry.source,
          ...(entry.baseScore === undefined ? {} : { baseScore: entry.baseScore }),
          finalScore: entry.finalScore,
          boosts: entry.boosts.map((boost) => ({ signal: boost.signal, amount: boost.amount })),
        }))
      : [],
  };
  if (trace.query.received.length > maxQueryLength) retrievalDetails.receivedQueryLength = trace.query.received.length;
  if (result.found) {
    const summary = result.contextPack.summary;
    retrievalDetails.contextPack = {
      includedSources: [...summary.includedSources],
      omittedSources: [...summary.omittedSources],
      truncated: [...summary.truncated],
    };
  }
  return retrievalDetails;
}

/** Longest model name kept. */
const modelLength = 120;

function summarizeAttempt(attempt: RetrievalAttempt): AttemptSummary {
  const summary: AttemptSummary = {
    attempt: attempt.attempt,
    candidateCount: attempt.candidateCount,
    evidenceCount: attempt.evidenceCount,
    outcome: attempt.outcome,
    rejectedHits: attempt.rejectedHits.length,
    durationMs: finiteOrZero(attempt.durationMs),
  };
  if (attempt.filter !== undefined) summary.filter = structuredClone(attempt.filter);
  if (attempt.l0Filter !== undefined) summary.l0Filter = structuredClone(attempt.l0Filter);
  if (attempt.topScore !== undefined) summary.topScore = attempt.topScore;
  if (attempt.topSource !== undefined) {
    const { source, title } = attempt.topSource;
    summary.topSource = title === undefined ? { source } : { source, title };
  }
  if (attempt.answerability !== undefined) {
    const { score, model, signals } = attempt.answerability;
    summary.answerability = { score, model: cut(model, modelLength), signals: { ...signals } };
  }
  if (attempt.leftOutShare !== undefined) summary.leftOutShare = finiteOrZero(attempt.leftOutShare);
  if (attempt.error !== undefined) summary.error = cut(`${attempt.error.code}: ${attempt.error.message}`, errorLength);
  return summary;
}

function summarizeEvidence(block: EvidenceBlock, packed: PackedBlock | undefined): EvidenceSummary {
  const summary: EvidenceSummary = {
    evidenceKey: block.evidenceKey,
    source: block.source,
    retrievalLayer: block.retrievalLayer,
    hitReasons: [...block.hitReasons],
    preview: cut(block.content.replace(/\s+/g, " ").trim(), previewLength),
  };
  if (block.title !== undefined) summary.title = block.title;
  if (block.score !== undefined) summary.score = block.score;
  if (packed !== undefined) {
    // What the model read, as a digest: the inspector rebuilds it from the chunk and checks it.
    summary.packed = {
      length: packed.content.length,
      sha256: createHash("sha256").update(packed.content).digest("hex"),
      truncated: packed.truncated,
      ...(packed.allotment === undefined ? {} : { allotment: packed.allotment }),
    };
  }
  return summary;
}

/** `text` when it fits in `limit` code units, else its start and `…`, never splitting a surrogate pair. */
function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let end = limit - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

function isoTime(date: Date): string {
  return Number.isNaN(date.getTime()) ? new Date().toISOString() : date.toISOString();
}

function finiteOrZero(value: number): number {
  return Number.isFinite(value) ? value : 0;
}
