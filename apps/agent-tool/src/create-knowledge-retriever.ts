import {
  LookupKnowledgeError,
  describeValue,
  emptyL0Hints,
  errorMessage,
  hasL0Hints,
  resolveRagConfig,
  type EvidenceBlock,
  type FallbackReason,
  type FlatRagConfig,
  type L0Hints,
  type LookupResult,
  type MetadataFilter,
  type RagConfig,
  type RagConfigInput,
  type RetrievalAttempt,
  type RetrievalLayer,
  type RetrievalTrace,
} from "@lookup-knowledge/core";
import type { L0Index } from "@lookup-knowledge/l0-hints";
import {
  assessCompleteness,
  assessRelevance,
  normalizeHits,
  packContext,
  postprocessCandidates,
  resolveRerankWeights,
  type PostprocessOutput,
  type RerankWeights,
} from "@lookup-knowledge/postprocess";
import {
  andFilters,
  equalsFilter,
  validateMetadataFilter,
  type KnowledgeSearchPort,
} from "@lookup-knowledge/search-port";
import { buildToolInvocationRecord, createTraceRecorder, type TraceStore } from "@lookup-knowledge/trace-store";
import { normalizeQuery } from "./normalize-query.js";
import { runWithTimeout } from "./run-with-timeout.js";
import { transformQuery, type TransformedQuery } from "./transform-query.js";

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

/** The category field an L0 domain filters on (R7). */
const l0FilterField = "category";

/** Content characters every packed block gets at least, budget permitting. */
const minPackedBlockChars = 160;

interface AttemptRun {
  trace: RetrievalAttempt;
  usable: boolean;
  output?: PostprocessOutput;
  rejectedHits: number;
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
  if (!options || typeof options.searchPort?.search !== "function") {
    throw new LookupKnowledgeError({
      code: "invalid_retriever_options",
      message: "createKnowledgeRetriever needs a searchPort with a search(request) method",
    });
  }
  const config = Object.freeze(resolveRagConfig(options.config ?? {}));
  const weights = resolveRerankWeights(options.rerankWeights);
  const { searchPort, l0Index } = options;
  const toolName = options.toolName ?? "lookup_knowledge";
  const onTraceError = options.onTraceError ?? ((error: LookupKnowledgeError) => console.warn(error.message));
  const recorder = options.traceStore ? createTraceRecorder(options.traceStore, { onError: onTraceError }) : undefined;

  async function runAttempt(input: {
    attempt: number;
    query: string;
    rawQuery: string;
    hints: L0Hints;
    callerFilter?: MetadataFilter;
    l0Filter?: MetadataFilter;
    signal?: AbortSignal;
  }): Promise<AttemptRun> {
    const filter = andFilters(input.callerFilter, input.l0Filter);
    // An attempt steered by L0 names the caller's part as the scope, so the port judges the
    // steered list only against the caller's records (R9), never against other tenants' (R12).
    const scope = input.l0Filter ? { scopeFilter: input.callerFilter ?? {} } : {};
    const started = performance.now();
    const base = {
      attempt: input.attempt,
      query: input.query,
      topK: config.retrieveK,
      ...(filter ? { filter } : {}),
      ...(input.l0Filter ? { l0Filter: input.l0Filter } : {}),
    };
    let hits: unknown;
    try {
      hits = await runWithTimeout(
        (signal) => searchPort.search({ query: input.query, topK: config.retrieveK, ...(filter ? { filter } : {}), ...scope, signal }),
        { timeoutMs: config.l1TimeoutMs, operationName: "search port", ...(input.signal ? { signal: input.signal } : {}) },
      );
    } catch (error) {
      if (input.signal?.aborted) throw input.signal.reason;
      const code = LookupKnowledgeError.isInstance(error) ? error.code : "search_failed";
      return {
        trace: {
          ...base,
          candidateCount: 0,
          evidenceCount: 0,
          outcome: "error",
          rejectedHits: [],
          error: { code, message: errorMessage(error) },
          durationMs: performance.now() - started,
        },
        usable: false,
        rejectedHits: 0,
      };
    }
    const { candidates, rejected } = normalizeHits(hits, { attempt: input.attempt });
    const output = postprocessCandidates(candidates, {
      query: input.rawQuery,
      hints: input.hints,
      maxChunksPerDocument: config.maxChunksPerDocument,
      returnN: config.returnN,
      weights,
    });
    // Judged on the evidence that survived, not on a candidate that post-processing cut.
    const topScore = topEvidenceScore(output.evidenceBlocks);
    // The port judges its best hit; that judgement (and its signals) explains the outcome.
    const answerability = candidates.find((candidate) => candidate.portRank === 0)?.answerability;
    const evidenceCount = output.evidenceBlocks.length;
    const outcome =
      candidates.length === 0
        ? "no_candidates"
        : evidenceCount === 0
          ? "no_evidence"
          : topScore !== undefined && topScore < config.referenceThreshold
            ? "low_quality"
            : "usable";
    return {
      trace: {
        ...base,
        candidateCount: candidates.length,
        evidenceCount,
        ...(topScore !== undefined ? { topScore } : {}),
        ...(answerability !== undefined ? { answerability } : {}),
        outcome,
        rejectedHits: rejected,
        durationMs: performance.now() - started,
      },
      usable: outcome === "usable",
      output,
      rejectedHits: rejected.length,
    };
  }

  async function lookup(query: string, lookupOptions: LookupOptions = {}): Promise<LookupResult> {
    const startedAt = new Date();
    const started = performance.now();
    let result: LookupResult;
    try {
      result = await runLookup(query, lookupOptions);
    } catch (error) {
      record(failedResult(query, error), startedAt, started, errorMessage(error));
      throw error;
    }
    record(result, startedAt, started);
    return result;
  }

  // 8. Trace recording: never fails or blocks the lookup (R29).
  function record(result: LookupResult, startedAt: Date, started: number, error?: string): void {
    if (!recorder) return;
    try {
      recorder.record(
        buildToolInvocationRecord({
          result,
          toolName,
          startedAt,
          durationMs: performance.now() - started,
          maxQueryLength: config.maxQueryLength,
          ...(error === undefined ? {} : { error }),
        }),
      );
    } catch (cause) {
      onTraceError(
        new LookupKnowledgeError({
          code: "trace_record_build_failed",
          message: `The trace record of a lookup could not be built: ${errorMessage(cause)}`,
          cause,
        }),
      );
    }
  }

  async function runLookup(query: string, lookupOptions: LookupOptions): Promise<LookupResult> {
    const { signal } = lookupOptions;
    if (signal?.aborted) throw signal.reason;
    const callerFilter =
      lookupOptions.filter === undefined ? undefined : validateMetadataFilter(lookupOptions.filter);

    // 1. Query transformation (normalisation first; expansion needs the hints).
    const normalized = normalizeQuery(query, config.maxQueryLength);
    // 2. L0 hints.
    const hints = l0Index ? l0Index.match(normalized.normalized) : emptyL0Hints();
    const transformed = transformQuery({ received: query, ...normalized }, hints, { expansion: config.queryExpansion });

    // 3. L1 retrieval with the filter and retry rules.
    const attempts: AttemptRun[] = [];
    let fallbackReason: FallbackReason | undefined;
    if (config.l1Enabled) {
      // Domains only generic words matched count too: a query spanning several gets no filter.
      const domains = [...new Set([...hints.domains, ...(hints.otherDomains ?? [])].map((domain) => domain.trim()).filter((domain) => domain !== ""))];
      const l0Filter = domains.length === 1 && domains[0] ? equalsFilter(l0FilterField, domains[0]) : undefined;
      const first = await runAttempt({
        attempt: 1,
        query: transformed.transformed,
        rawQuery: transformed.normalized,
        hints,
        ...(callerFilter ? { callerFilter } : {}),
        ...(l0Filter ? { l0Filter } : {}),
        ...(signal ? { signal } : {}),
      });
      attempts.push(first);
      if (l0Filter && !first.usable) {
        fallbackReason = fallbackReasonOf(first);
        attempts.push(
          await runAttempt({
            attempt: 2,
            query: transformed.normalized,
            rawQuery: transformed.normalized,
            hints,
            ...(callerFilter ? { callerFilter } : {}),
            ...(signal ? { signal } : {}),
          }),
        );
      }
    }

    // 4-7. Post-processing happened per attempt; pack and assemble from the usable one.
    const usable = attempts.find((attempt) => attempt.usable);
    return assembleResult({ transformed, hints, attempts, usable, fallbackReason });
  }

  /** The record of a call that did not produce a result (bad query or filter, abort). */
  function failedResult(query: unknown, error: unknown): LookupResult {
    const received = typeof query === "string" ? query : describeValue(query);
    return {
      found: false,
      evidenceStatus: "no_evidence",
      query: received,
      message: `The lookup did not run: ${errorMessage(error)}`,
      evidenceBlocks: [],
      retrievalTrace: {
        query: { received, normalized: "", transformed: "", truncated: false, addedTerms: [] },
        hints: emptyL0Hints(),
        l1Enabled: config.l1Enabled,
        retrievalLayer: "none",
        attempts: [],
        candidateCount: 0,
        evidenceCount: 0,
        referenceThreshold: config.referenceThreshold,
      },
      relevanceLevel: "none",
      completenessHint: { status: "none", notes: [] },
    };
  }

  function assembleResult(input: {
    transformed: TransformedQuery;
    hints: L0Hints;
    attempts: AttemptRun[];
    usable: AttemptRun | undefined;
    fallbackReason: FallbackReason | undefined;
  }): LookupResult {
    const { transformed, hints, attempts, usable, fallbackReason } = input;
    const last = usable ?? attempts[attempts.length - 1];
    const candidateCount = last?.trace.candidateCount ?? 0;
    const layer: RetrievalLayer =
      usable || candidateCount > 0 ? (hasL0Hints(hints) ? "L0+L1" : "L1") : hasL0Hints(hints) ? "L0" : "none";
    const retrievalTrace: RetrievalTrace = {
      query: {
        received: transformed.received,
        normalized: transformed.normalized,
        transformed: transformed.transformed,
        truncated: transformed.truncated,
        addedTerms: transformed.addedTerms,
      },
      hints,
      l1Enabled: config.l1Enabled,
      retrievalLayer: layer,
      attempts: attempts.map((attempt) => attempt.trace),
      ...(fallbackReason ? { fallbackReason } : {}),
      candidateCount,
      evidenceCount: usable?.output?.evidenceBlocks.length ?? 0,
      referenceThreshold: config.referenceThreshold,
    };
    if (!usable?.output) {
      return {
        found: false,
        evidenceStatus: "no_evidence",
        query: transformed.normalized,
        message: noEvidenceMessage(attempts, config),
        evidenceBlocks: [],
        retrievalTrace,
        relevanceLevel: "none",
        completenessHint: { status: "none", notes: [] },
      };
    }
    const { evidenceBlocks, rerankTrace, droppedByCap, droppedByReturnN } = usable.output;
    const contextPack = packContext(evidenceBlocks, {
      budget: config.contextBudget,
      minBlockChars: Math.min(minPackedBlockChars, config.contextBudget),
    });
    const relevance = assessRelevance(evidenceBlocks, { referenceThreshold: config.referenceThreshold });
    const completenessHint = assessCompleteness({
      contextPack,
      droppedByCap: droppedByCap.length,
      droppedByReturnN: droppedByReturnN.length,
      rejectedHits: usable.rejectedHits,
    });
    const sources = new Set(evidenceBlocks.map((block) => block.source)).size;
    return {
      found: true,
      evidenceStatus: "evidence",
      query: transformed.normalized,
      message: `Found ${evidenceBlocks.length} evidence block${evidenceBlocks.length === 1 ? "" : "s"} from ${sources} source${sources === 1 ? "" : "s"}. ${relevance.reason}`,
      evidenceBlocks,
      contextPack,
      retrievalTrace,
      rerankTrace,
      relevanceLevel: relevance.relevanceLevel,
      completenessHint,
    };
  }

  /** Waits for the recorder, then lets the store move its records to where they are kept (a failure is reported, not thrown). */
  async function flushTraces(): Promise<{ recorded: number; pending: number }> {
    const outcome = recorder ? await recorder.flush() : { recorded: 0, pending: 0 };
    if (typeof options.traceStore?.flush === "function") {
      try {
        await options.traceStore.flush();
      } catch (cause) {
        onTraceError(
          LookupKnowledgeError.isInstance(cause)
            ? cause
            : new LookupKnowledgeError({ code: "trace_flush_failed", message: `The trace store could not flush: ${errorMessage(cause)}`, cause }),
        );
      }
    }
    return outcome;
  }

  return {
    lookup,
    config,
    flushTraces,
    close: async () => {
      const { pending } = await flushTraces();
      // The last chance: what the recorder still holds is gone once the process ends.
      if (pending > 0) {
        const records = pending === 1 ? "1 trace record" : `${pending} trace records`;
        onTraceError(
          new LookupKnowledgeError({
            code: "trace_records_lost",
            message:
              `${records} could not be written and ${pending === 1 ? "is" : "are"} lost: the trace store still refused ` +
              `${pending === 1 ? "it" : "them"} when the retriever closed (see the earlier trace error for why).`,
            retryable: false,
          }),
        );
      }
    },
  };
}

function topEvidenceScore(blocks: EvidenceBlock[]): number | undefined {
  let top: number | undefined;
  for (const block of blocks) {
    if (block.score !== undefined && (top === undefined || block.score > top)) top = block.score;
  }
  return top;
}

function fallbackReasonOf(attempt: AttemptRun): FallbackReason {
  switch (attempt.trace.outcome) {
    case "error":
      return "filtered_vector_error";
    case "low_quality":
      return "filtered_vector_low_quality";
    default:
      return "filtered_vector_no_evidence";
  }
}

function noEvidenceMessage(attempts: AttemptRun[], config: RagConfig): string {
  const base = "No knowledge evidence was found for this query in the knowledge base.";
  if (!config.l1Enabled) return `${base} Semantic retrieval (L1) is disabled by rag.l1-enabled=false; keyword hints are never evidence.`;
  const outcomes = attempts.map((attempt) => attempt.trace);
  if (outcomes.length > 0 && outcomes.every((attempt) => attempt.outcome === "error")) {
    return `${base} The search failed on every attempt: ${outcomes.map((attempt) => attempt.error?.message).join("; ")}.`;
  }
  if (outcomes.some((attempt) => attempt.outcome === "low_quality")) {
    const best = Math.max(...outcomes.map((attempt) => attempt.topScore ?? 0));
    return `${base} The closest matches scored ${best.toFixed(3)}, below the reference threshold ${config.referenceThreshold}.`;
  }
  return base;
}
