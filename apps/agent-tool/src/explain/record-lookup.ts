import type { Candidate, ContextPack, LookupResult, MetadataFilter, RagConfig } from "@lookup-knowledge/core";
import type { L0Index } from "@lookup-knowledge/l0-hints";
import type { PostprocessOutput } from "@lookup-knowledge/postprocess";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { createRetrieverWithStages } from "../create-knowledge-retriever.js";
import { defaultLookupStages, type LookupStages } from "../retriever/lookup-stages.js";

/** What the real stages of one attempt received and gave, recorded as they ran. */
export interface RecordedAttempt {
  attempt: number;
  /** The identified hits (`normalizeHits`), in the port's order. */
  candidates: Candidate[];
  /** Dedup, cap, rerank and return width (`postprocessCandidates`). */
  output?: PostprocessOutput;
  /** The scope filter the port was given, when the attempt was steered by L0. */
  scopeFilter?: MetadataFilter;
}

export interface RecordedLookup {
  result: LookupResult;
  attempts: RecordedAttempt[];
  /** The context pack of the used attempt (`packContext`), when one ran. */
  contextPack?: ContextPack;
}

/**
 * Runs one real lookup (the retriever's own code, its real stages) with every stage wrapped
 * to keep what it received and returned, so explain reads the pipeline's own decisions
 * instead of recomputing them. No trace is recorded.
 */
export async function recordLookup(input: {
  searchPort: KnowledgeSearchPort;
  l0Index?: L0Index;
  config: Readonly<RagConfig>;
  query: string;
  filter?: MetadataFilter;
  signal?: AbortSignal;
}): Promise<RecordedLookup> {
  const attempts: RecordedAttempt[] = [];
  const scopes: Array<MetadataFilter | undefined> = [];
  let contextPack: ContextPack | undefined;
  let current: RecordedAttempt | undefined;
  const stages: LookupStages = {
    ...defaultLookupStages,
    normalizeHits(hits, options) {
      const identified = defaultLookupStages.normalizeHits(hits, options);
      current = { attempt: options?.attempt ?? attempts.length + 1, candidates: identified.candidates };
      const scopeFilter = scopes[current.attempt - 1];
      if (scopeFilter) current.scopeFilter = scopeFilter;
      attempts.push(current);
      return identified;
    },
    postprocessCandidates(candidates, options) {
      const output = defaultLookupStages.postprocessCandidates(candidates, options);
      if (current) current.output = output;
      return output;
    },
    packContext(blocks, options) {
      contextPack = defaultLookupStages.packContext(blocks, options);
      return contextPack;
    },
  };
  // The searches run one after the other; the n-th is attempt n.
  const searchPort: KnowledgeSearchPort = {
    search(request) {
      scopes.push(request.scopeFilter);
      return input.searchPort.search(request);
    },
    ...(input.searchPort.referenceThreshold === undefined ? {} : { referenceThreshold: input.searchPort.referenceThreshold }),
  };
  const retriever = createRetrieverWithStages(
    { searchPort, ...(input.l0Index ? { l0Index: input.l0Index } : {}), config: input.config, onTraceError: () => {} },
    stages,
  );
  const result = await retriever.lookup(input.query, {
    ...(input.filter ? { filter: input.filter } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  });
  return { result, attempts, ...(contextPack ? { contextPack } : {}) };
}
