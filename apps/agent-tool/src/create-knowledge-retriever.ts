import {
  LookupKnowledgeError,
  emptyL0Hints,
  errorMessage,
  resolveRagConfig,
  type FlatRagConfig,
  type LookupResult,
  type MetadataFilter,
  type RagConfig,
  type RagConfigInput,
} from "@lookup-knowledge/core";
import type { L0Index } from "@lookup-knowledge/l0-hints";
import { resolveRerankWeights, type RerankWeights } from "@lookup-knowledge/postprocess";
import { validateMetadataFilter, type KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import type { TraceStore } from "@lookup-knowledge/trace-store";
import { normalizeQuery } from "./normalize-query.js";
import { assembleLookupResult } from "./retriever/assemble-lookup-result.js";
import { deriveL0Filter } from "./retriever/derive-l0-filter.js";
import { scopedL0Indexes } from "./retriever/scoped-l0-index.js";
import { failedLookupResult } from "./retriever/failed-lookup-result.js";
import { defaultLookupStages, type LookupStages } from "./retriever/lookup-stages.js";
import { recordLookups } from "./retriever/record-lookups.js";
import { retrieveWithFallback, type FallbackOutcome } from "./retriever/retrieve-with-fallback.js";
import { runAttempt } from "./retriever/run-attempt.js";
import { inStageSpan } from "./telemetry/in-stage-span.js";
import type { LookupStageSpans } from "./telemetry/lookup-stage-spans.js";
import { hintsAttributes } from "./telemetry/stage-span-attributes.js";
import { parseTelemetryOptions, type KnowledgeRetrieverTelemetryOptions } from "./telemetry/telemetry-options.js";
import { traceLookups } from "./telemetry/trace-lookup.js";
import { transformQuery } from "./transform-query.js";
import { withPortThreshold } from "./retriever/sets-reference-threshold.js";
import type { AgentToolErrorCode } from "./agent-tool-error-code.js";

export interface KnowledgeRetrieverOptions {
  searchPort: KnowledgeSearchPort;
  l0Index?: L0Index;
  traceStore?: TraceStore;
  /** A typed object or flat `rag.*` keys (or both); see `resolveRagConfig`. */
  config?: RagConfigInput | FlatRagConfig;
  /** Rule weights of the reranker. */
  rerankWeights?: Partial<RerankWeights>;
  /**
   * Told when a trace record could not be written yet (it is kept and retried), was
   * dropped, or could not be built. Without it, each is printed with `console.warn`.
   */
  onTraceError?: (error: LookupKnowledgeError) => void;
  /** The tool name written into trace records. */
  toolName?: string;
  /**
   * OpenTelemetry: each lookup is one span when a tracer is registered (README,
   * "OpenTelemetry"); the query and evidence content stay off the span unless `includeContent`.
   */
  telemetry?: KnowledgeRetrieverTelemetryOptions;
}

export interface LookupOptions {
  /** A caller filter (tenant, access scope). It is kept on every attempt (R12). */
  filter?: MetadataFilter;
  signal?: AbortSignal;
}

export interface KnowledgeRetriever {
  lookup(query: string, options?: LookupOptions): Promise<LookupResult>;
  readonly config: Readonly<RagConfig>;
  /**
   * Waits for trace records in flight and retries the ones that failed, then calls the
   * store's `flush` when it has one (a durable store moves its spool into its database; a
   * failure there is reported to `onTraceError`, the records stay spooled).
   */
  flushTraces(): Promise<{ recorded: number; pending: number }>;
  /**
   * Flushes traces; the retriever can still be used afterwards. Records still not written
   * then are reported to `onTraceError` as lost (`trace_records_lost`): a process that ends
   * after `close` drops them.
   */
  close(): Promise<void>;
}

/**
 * Creates the orchestrator of `lookup_knowledge`. Each lookup runs the stages of R1 in
 * order: query transformation, L0 hints, L1 retrieval with the filter and retry rules
 * (R5-R12), post-processing, evidence blocks, context packing, result assembly and trace
 * recording. A port that throws, hangs or returns malformed hits never makes `lookup`
 * throw; only a query that is not one (`InvalidQueryError`), a malformed caller filter
 * (`InvalidFilterError`) or the caller's own abort do, and those calls are recorded too.
 * Bad configuration or rerank weights are refused here, when the retriever is created.
 */
export function createKnowledgeRetriever(options: KnowledgeRetrieverOptions): KnowledgeRetriever {
  return createRetrieverWithStages(options, defaultLookupStages);
}

/**
 * `createKnowledgeRetriever` with its post-retrieval stages given: the stage-order test wraps
 * the real ones to see when each runs. Not exported from the package.
 */
export function createRetrieverWithStages(options: KnowledgeRetrieverOptions, stages: LookupStages): KnowledgeRetriever {
  if (!options || typeof options.searchPort?.search !== "function") {
    throw new LookupKnowledgeError<AgentToolErrorCode>({
      code: "invalid_retriever_options",
      message: "createKnowledgeRetriever needs a searchPort with a search(request) method",
    });
  }
  // A port that judges answerability names the threshold its judgement is read at; settings win.
  const config = Object.freeze(resolveRagConfig(withPortThreshold(options.config, options.searchPort)));
  const weights: RerankWeights = resolveRerankWeights(options.rerankWeights);
  const toolName = options.toolName ?? "lookup_knowledge";
  // Without a data source id of its own, a bare port is named by the tool it serves.
  const telemetry = parseTelemetryOptions(options.telemetry, toolName);
  const { searchPort, l0Index } = options;
  const l0IndexFor = l0Index === undefined ? undefined : scopedL0Indexes(l0Index);
  const onTraceError = options.onTraceError ?? ((error: LookupKnowledgeError) => console.warn(error.message));
  const recording = recordLookups({
    traceStore: options.traceStore,
    toolName,
    config,
    stages,
    onTraceError,
  });
  const attemptContext = { searchPort, config, weights, stages };

  // `spans` is there only while OpenTelemetry records this lookup: each stage then reports a
  // child span (hints, each attempt, rerank, pack, record); otherwise it costs a null check.
  async function runLookup(query: string, lookupOptions: LookupOptions, spans: LookupStageSpans | undefined): Promise<LookupResult> {
    const { signal } = lookupOptions;
    if (signal?.aborted) throw signal.reason;
    const callerFilter: MetadataFilter | undefined =
      lookupOptions.filter === undefined ? undefined : validateMetadataFilter(lookupOptions.filter);

    // 1. Query transformation (normalisation first; expansion needs the hints).
    const normalized = normalizeQuery(query, config.maxQueryLength);
    // 2. L0 hints.
    // The caller's filter scopes the hints as it scopes content (issue 33).
    const hints = inStageSpan(
      spans?.start("hints"),
      () => (l0IndexFor ? l0IndexFor(callerFilter).match(normalized.normalized) : emptyL0Hints()),
      hintsAttributes,
    );
    const transformed = transformQuery({ received: query, ...normalized }, hints, { expansion: config.queryExpansion });

    // 3-4. L1 retrieval with the filter and retry rules; each attempt is post-processed into
    // evidence blocks as it returns.
    const l0Filter = deriveL0Filter(hints);
    const { attempts, fallbackReason }: FallbackOutcome = config.l1Enabled
      ? await retrieveWithFallback((input) => runAttempt(attemptContext, input, spans), {
          transformedQuery: transformed.transformed,
          normalizedQuery: transformed.normalized,
          hints,
          ...(l0Filter ? { l0Filter } : {}),
          ...(callerFilter ? { callerFilter } : {}),
          ...(signal ? { signal } : {}),
        })
      : { attempts: [] };

    // 5-7. Context packing, judgements and assembly from the usable attempt.
    return assembleLookupResult(config, stages, { transformed, hints, attempts, fallbackReason }, spans);
  }

  async function lookup(query: string, lookupOptions: LookupOptions = {}, spans?: LookupStageSpans): Promise<LookupResult> {
    const startedAt = new Date();
    const started = performance.now();
    let result: LookupResult;
    try {
      result = await runLookup(query, lookupOptions, spans);
    } catch (error) {
      // 8. Trace recording, for a call that did not run too; never fails or blocks it (R29).
      const recordSpan = spans?.start("record");
      recording.record(failedLookupResult(config, query, error), startedAt, started, errorMessage(error));
      recordSpan?.end({ "lookup_knowledge.trace_store": options.traceStore !== undefined });
      throw error;
    }
    // 8. Trace recording.
    const recordSpan = spans?.start("record");
    recording.record(result, startedAt, started);
    recordSpan?.end({ "lookup_knowledge.trace_store": options.traceStore !== undefined });
    return result;
  }

  return { lookup: traceLookups(telemetry, config, lookup), config, flushTraces: recording.flushTraces, close: recording.close };
}
