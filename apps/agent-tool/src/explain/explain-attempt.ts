import type { Candidate, ContextPack, MetadataFilter, RagConfig, RetrievalAttempt } from "@lookup-knowledge/core";
import { dedupeCandidates } from "@lookup-knowledge/postprocess";
import { knowledgeRecordId } from "@lookup-knowledge/search-port";
import { chunkFate, mergedCopies } from "./chunk-fate.js";
import { failingClause, filterClauses } from "./filter-clauses.js";
import type { ExplainAttempt, ExplainOutcome, ExplainOutcomeKind } from "./lookup-explanation.js";
import type { RecordedAttempt } from "./record-lookup.js";
import type { ExpectedTarget } from "./resolve-expected.js";

/** Best placed first: the order a document's summary outcome is picked in. */
const placement: readonly ExplainOutcomeKind[] = [
  "included",
  "truncated_by_budget",
  "omitted_by_budget",
  "attempt_refused",
  "cut_by_return_n",
  "cut_by_document_cap",
  "merged_by_dedup",
  "beyond_retrieve_k",
  "deeper_search_failed",
  "excluded_by_filter",
  "attempt_failed",
  "not_in_index",
];

export interface AttemptToExplain {
  trace: RetrievalAttempt;
  record: RecordedAttempt | undefined;
  used: boolean;
  contextPack: ContextPack | undefined;
  config: Readonly<RagConfig>;
  callerFilter: MetadataFilter | undefined;
  /** The attempt's search again, `searchedTo` deep, with the same filter: its identified hits, or why it failed. */
  searchDeeper: () => Promise<DeeperSearch>;
  /** Metadata of a chunk the store holds, by evidence key, for the filter check; or why the search for it failed. */
  metadataOf: (key: string) => Promise<Record<string, unknown> | SearchFailure | undefined>;
  searchedTo: number;
}

/** Why a search explain ran itself (not the lookup's own) failed. */
export interface SearchFailure {
  failed: { code: string; message: string };
}

/** A search explain ran itself: its identified hits, or why it failed. */
export type DeeperSearch = { candidates: Candidate[] } | SearchFailure;

const isFailure = (value: unknown): value is SearchFailure =>
  typeof value === "object" && value !== null && "failed" in value && typeof (value as SearchFailure).failed === "object";

const filterText = (filter: MetadataFilter) => JSON.stringify(filter);

/** Ascending, with infinities equal to each other (a plain difference would be NaN). */
const compareNumbers = (a: number, b: number) => (a === b ? 0 : a < b ? -1 : 1);

/** Says where the expected document or chunk stood on one attempt, and why. */
export async function explainAttempt(target: ExpectedTarget, input: AttemptToExplain): Promise<ExplainAttempt> {
  const { trace, record } = input;
  const head = {
    index: trace.attempt,
    ...(trace.filter ? { filter: trace.filter } : {}),
    ...(trace.l0Filter ? { l0Filter: trace.l0Filter } : {}),
    attemptOutcome: trace.outcome,
    ...(trace.topSource ? { topSource: trace.topSource } : {}),
    used: input.used,
  };
  const name = target.kind === "chunk" ? (target.evidenceKey ?? target.docId) : (target.source ?? target.docId);
  if (!target.inIndex) {
    return { ...head, outcome: { kind: "not_in_index", message: `${name} is not in the index: the store does not hold it.` } };
  }
  if (trace.outcome === "error" || !record) {
    return {
      ...head,
      outcome: {
        kind: "attempt_failed",
        message: `Attempt ${trace.attempt} failed, so nothing of ${name} reached the model: ${trace.error?.message ?? "no hits"}.`,
      },
    };
  }
  const belongs = (candidate: Candidate) =>
    target.kind === "chunk" ? candidate.evidenceKey === target.evidenceKey : candidate.docId === target.docId;
  const seen = record.candidates.filter(belongs);
  const chunks: ExplainOutcome[] = [];
  const keys = [...new Set(seen.map((candidate) => candidate.evidenceKey))];
  for (const key of keys) {
    const copies = seen.filter((candidate) => candidate.evidenceKey === key);
    const [kept] = dedupeCandidates(copies);
    const fate = record.output
      ? chunkFate({ key, output: record.output, trace, used: input.used, contextPack: input.contextPack, config: input.config })
      : undefined;
    if (fate) chunks.push(fate);
    if (kept && copies.length > 1) chunks.push(...mergedCopies(copies, kept));
  }
  // The chunks the port did not return on this attempt.
  const expectedKeys =
    target.kind === "chunk" && target.evidenceKey
      ? [target.evidenceKey]
      : Array.from({ length: target.chunkCount ?? Math.max(1, target.records.size) }, (_, index) => knowledgeRecordId(target.docId, index));
  const missing = expectedKeys.filter((key) => !keys.includes(key));
  if (missing.length > 0) {
    const clauses = filterClauses(input.callerFilter, trace.l0Filter);
    const deeper = await input.searchDeeper();
    for (const key of missing) {
      const looked = await input.metadataOf(key);
      const metadata = isFailure(looked) ? undefined : looked;
      const failed = metadata ? failingClause(metadata, clauses) : undefined;
      if (failed) {
        chunks.push({
          kind: "excluded_by_filter",
          evidenceKey: key,
          clause: failed.clause,
          clauseOrigin: failed.origin,
          message: `${key} was excluded by the ${failed.origin === "l0" ? "L0 filter" : "caller filter"} clause ${filterText(failed.clause)}, which its metadata fails.`,
        });
        continue;
      }
      const searchFailure = isFailure(deeper) ? deeper.failed : isFailure(looked) ? looked.failed : undefined;
      if (searchFailure) {
        chunks.push({
          kind: "deeper_search_failed",
          evidenceKey: key,
          retrieveK: trace.topK,
          searchedTo: input.searchedTo,
          searchError: searchFailure,
          message: `${key} was not among this attempt's ${trace.topK} hits (rag.retrieve-k), and the search to ${input.searchedTo} that would place it failed (${searchFailure.code}: ${searchFailure.message}).`,
        });
        continue;
      }
      const found = isFailure(deeper) ? undefined : deeper.candidates.find((candidate) => candidate.evidenceKey === key);
      chunks.push(
        found
          ? {
              kind: "beyond_retrieve_k",
              evidenceKey: key,
              portRank: found.portRank + 1,
              ...(found.score === undefined ? {} : { portScore: found.score }),
              retrieveK: trace.topK,
              searchedTo: input.searchedTo,
              message: `${key} ranked ${found.portRank + 1} (score ${found.score === undefined ? "unscored" : found.score.toFixed(3)}) when searched to ${input.searchedTo}, beyond rag.retrieve-k=${trace.topK}.`,
            }
          : {
              kind: "beyond_retrieve_k",
              evidenceKey: key,
              retrieveK: trace.topK,
              searchedTo: input.searchedTo,
              message: `${key} was not among the top ${input.searchedTo} hits of this attempt's search, far beyond rag.retrieve-k=${trace.topK}.`,
            },
      );
    }
  }
  // Best placed first: by kind, then by rank; a chunk with no rank (not found however deep) comes last of its kind.
  const placeOf = (outcome: ExplainOutcome) => outcome.rank ?? outcome.portRank ?? Number.POSITIVE_INFINITY;
  chunks.sort((a, b) => placement.indexOf(a.kind) - placement.indexOf(b.kind) || compareNumbers(placeOf(a), placeOf(b)));
  const best = chunks[0] ?? { kind: "beyond_retrieve_k" as const, message: `No chunk of ${name} was seen on attempt ${trace.attempt}.` };
  // A chunk's own outcome; its copies merged by dedup, when there were any, beside it.
  if (target.kind === "chunk") return { ...head, outcome: best, ...(chunks.length > 1 ? { chunks } : {}) };
  const chunkCounts: Partial<Record<ExplainOutcomeKind, number>> = {};
  for (const chunk of chunks) chunkCounts[chunk.kind] = (chunkCounts[chunk.kind] ?? 0) + 1;
  const counts = Object.entries(chunkCounts)
    .map(([kind, count]) => `${count} ${kind}`)
    .join(", ");
  return {
    ...head,
    outcome: { ...best, chunkCounts, message: `${name} (${counts}): best chunk: ${best.message}` },
    chunks,
  };
}
