import { describeValue, errorMessage, InvalidQueryError, type LookupResult, type RagConfig } from "@lookup-knowledge/core";
import type { TelemetryAttributes } from "./telemetry-tracer.js";

// The span of one lookup follows the retrieval span of the OpenTelemetry GenAI semantic
// conventions (status Development) as published in open-telemetry/semantic-conventions-genai
// v0.1.0 (retrieval.md, on semantic-conventions v1.45.0):
// - name `{gen_ai.operation.name}`, that is `retrieval`;
// - kind INTERNAL: the lookup is an in-process retrieval pipeline (the conventions' framework
//   retrieval span); its stages are child spans (`lookup-stage-spans.ts`);
// - `gen_ai.operation.name` "retrieval"; `gen_ai.data_source.id`, the store's name by default
//   (`storeDataSourceId`); `gen_ai.retrieval.top_k`, the most documents the pipeline returns
//   (`returnN`). v0.1.0 scoped `gen_ai.request.top_k` to the sampling parameter of a model
//   request, so it is not set; the width asked of the store (`retrieveK`) has no attribute in
//   the conventions and is `lookup_knowledge.retrieve_k`;
// - `gen_ai.retrieval.documents`: the evidence blocks as `[{ id, score }]`, id = evidenceKey,
//   score = the port's similarity when known; recorded as a JSON string, which the
//   conventions allow where structured attribute values are not supported (the JS API takes
//   only primitive arrays). The conventions make it opt-in; we record it by default because
//   without content it is only keys and scores, and add each document's content only with
//   `includeContent`;
// - `gen_ai.retrieval.query.text` (opt-in in the conventions): only with `includeContent`;
// - on failure `error.type` (the error code, else its name), status ERROR, the exception.
// Everything under `lookup_knowledge.` is our own.

export const operationName = "retrieval";

export const attributeNames = {
  operationName: "gen_ai.operation.name",
  dataSourceId: "gen_ai.data_source.id",
  topK: "gen_ai.retrieval.top_k",
  documents: "gen_ai.retrieval.documents",
  queryText: "gen_ai.retrieval.query.text",
  errorType: "error.type",
  retrieveK: "lookup_knowledge.retrieve_k",
  callerFilter: "lookup_knowledge.filter",
  attemptFilters: "lookup_knowledge.attempt_filters",
  attempts: "lookup_knowledge.attempts",
  fallbackReason: "lookup_knowledge.fallback_reason",
  found: "lookup_knowledge.found",
  evidenceStatus: "lookup_knowledge.evidence_status",
  evidenceCount: "lookup_knowledge.evidence_count",
  evidenceKeys: "lookup_knowledge.evidence_keys",
  candidateCount: "lookup_knowledge.candidate_count",
  relevanceLevel: "lookup_knowledge.relevance_level",
  completenessStatus: "lookup_knowledge.completeness_status",
  retrievalLayer: "lookup_knowledge.retrieval_layer",
} as const;

/** The span name the conventions ask for. */
export function lookupSpanName(): string {
  return operationName;
}

/** What is known when the span starts (the conventions want these at creation, for sampling). */
export function startAttributes(config: Readonly<RagConfig>, dataSourceId: string | undefined, callerFilter: unknown): TelemetryAttributes {
  const filter = callerFilter === undefined ? undefined : filterJson(callerFilter);
  return {
    [attributeNames.operationName]: operationName,
    ...(dataSourceId ? { [attributeNames.dataSourceId]: dataSourceId } : {}),
    [attributeNames.topK]: config.returnN,
    [attributeNames.retrieveK]: config.retrieveK,
    ...(filter === undefined ? {} : { [attributeNames.callerFilter]: filter }),
  };
}

/** What the lookup found. The query and evidence content only with `includeContent`. */
export function resultAttributes(result: LookupResult, includeContent: boolean): TelemetryAttributes {
  const trace = result.retrievalTrace;
  const documents = result.evidenceBlocks.map((block) => ({
    id: block.evidenceKey,
    ...(block.score === undefined ? {} : { score: block.score }),
    ...(includeContent ? { content: block.content } : {}),
  }));
  return {
    [attributeNames.documents]: JSON.stringify(documents),
    [attributeNames.evidenceKeys]: result.evidenceBlocks.map((block) => block.evidenceKey),
    [attributeNames.attempts]: trace.attempts.length,
    [attributeNames.attemptFilters]: trace.attempts.map((attempt) => filterJson(attempt.filter ?? null) ?? "null"),
    ...(trace.fallbackReason ? { [attributeNames.fallbackReason]: trace.fallbackReason } : {}),
    [attributeNames.found]: result.found,
    [attributeNames.evidenceStatus]: result.evidenceStatus,
    [attributeNames.evidenceCount]: result.evidenceBlocks.length,
    [attributeNames.candidateCount]: trace.candidateCount,
    [attributeNames.relevanceLevel]: result.relevanceLevel,
    [attributeNames.completenessStatus]: result.completenessHint.status,
    [attributeNames.retrievalLayer]: trace.retrievalLayer,
    ...(includeContent ? { [attributeNames.queryText]: trace.query.received } : {}),
  };
}

/** The attributes of a lookup that threw. */
export function errorAttributes(error: unknown, query: unknown, includeContent: boolean): TelemetryAttributes {
  return {
    [attributeNames.errorType]: errorType(error),
    ...(includeContent && typeof query === "string" ? { [attributeNames.queryText]: query } : {}),
  };
}

/**
 * The exception as the span records it: name, code and message, no stack. The message of an
 * invalid query quotes the query; without `includeContent` that quote is left out.
 */
export function describeException(error: unknown, includeContent: boolean): { name: string; message: string; code?: string } {
  const name = error instanceof Error ? error.name : typeof error;
  let message = errorMessage(error);
  if (!includeContent && InvalidQueryError.isInstance(error) && typeof error.value === "string") {
    message = message.replace(describeValue(error.value), "(query not recorded)");
  }
  const code = errorCode(error);
  return { name, message, ...(code ? { code } : {}) };
}

/** `error.type` of a failed lookup: the error's code, else its name, else `_OTHER`. */
export function errorType(error: unknown): string {
  return errorCode(error) ?? (error instanceof Error && error.name ? error.name : "_OTHER");
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return typeof code === "string" && code !== "" ? code : undefined;
}

/** `filter` as JSON, or undefined when it is none (a cycle, a BigInt: what JSON.stringify refuses). */
export function filterJson(filter: unknown): string | undefined {
  try {
    return JSON.stringify(filter);
  } catch {
    return undefined;
  }
}
