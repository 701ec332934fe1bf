import {
  errorMessage,
  LookupKnowledgeError,
  parseOptions,
  ragConfigKey,
  resolveRagConfig,
  type FlatRagConfig,
  type MetadataFilter,
  type RagConfig,
  type RagConfigInput,
} from "@lookup-knowledge/core";
import type { L0Index } from "@lookup-knowledge/l0-hints";
import { normalizeHits } from "@lookup-knowledge/postprocess";
import { canFetchRecords, validateMetadataFilter, type KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import { z } from "zod";
import { explainAttempt, type DeeperSearch, type SearchFailure } from "./explain-attempt.js";
import type { ExplainAttempt, LookupExplanation } from "./lookup-explanation.js";
import { recordLookup } from "./record-lookup.js";
import { resolveExpected } from "./resolve-expected.js";

/** What explain needs of a knowledge base: the parts `openKnowledgeBase` returns. */
export interface ExplainableKnowledgeBase {
  retriever: { readonly config: Readonly<RagConfig> };
  store: { port: KnowledgeSearchPort; stateDirectory?: string };
  l0Index?: L0Index;
}

export interface ExplainLookupOptions {
  /** A source path (`billing/refunds.md`, `.md` optional), a document id, or an evidence key (`billing/refunds#chunk-2`). */
  expected: string;
  /** The caller filter of the lookup, as `retriever.lookup` takes it. */
  filter?: MetadataFilter;
  /** `rag.*` overrides on top of the knowledge base's own configuration (typed or flat keys). */
  config?: RagConfigInput | FlatRagConfig;
  /** How deep a chunk the port did not return is searched for (default 200, at most 1000). */
  searchedTo?: number;
  signal?: AbortSignal;
}

// Built on first use, not at import (issue 36 item 5: a lookup that never reads these options builds nothing).
let optionsSchema: ReturnType<typeof buildOptionsSchema> | undefined;

function buildOptionsSchema() {
  return z.object({
    expected: z.string().refine((text) => text.trim() !== "", { error: "expected must name a source, document id or evidence key" }),
    filter: z.record(z.string(), z.unknown()).optional(),
    config: z.record(z.string(), z.unknown()).optional(),
    searchedTo: z.number().int().min(1).max(1000).optional(),
    signal: z.instanceof(AbortSignal).optional(),
  });
}

const defaultSearchedTo = 200;

/** The knowledge base's configuration with the overrides on top, resolved as one flat set of keys. */
function explainConfig(base: Readonly<RagConfig>, overrides: RagConfigInput | FlatRagConfig | undefined): Readonly<RagConfig> {
  if (!overrides) return base;
  const flat = (input: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(input)
        .filter(([, value]) => value !== undefined)
        .map(([name, value]) => [
          name.startsWith("rag.") ? name : name === "topK" ? "rag.top-k" : ragConfigKey(name as keyof RagConfig),
          value,
        ]),
    ) as FlatRagConfig;
  return Object.freeze(resolveRagConfig({ ...flat(base as unknown as Record<string, unknown>), ...flat(overrides) }));
}

/**
 * Why a lookup did (or did not) bring the expected document or chunk to the model. It runs
 * the real lookup (the retriever's own stages, recorded as they run; no trace is written) and
 * says, for each attempt, where the expected document's chunks stood: not in the index,
 * excluded by a filter clause, beyond `rag.retrieve-k` (with its rank searched deeper),
 * merged by dedup, cut by the per-document cap or by `rag.return-n`, omitted or truncated by
 * the context budget, refused with its attempt by the threshold, or included with its rank,
 * score and boosts. When the deeper search explain runs itself fails, the outcome says so
 * (`deeper_search_failed`, with the error's code and message) instead of guessing a rank. Bad options are refused (`ConfigurationError`, `InvalidFilterError`).
 */
export async function explainLookup(
  knowledgeBase: ExplainableKnowledgeBase,
  query: string,
  options: ExplainLookupOptions,
): Promise<LookupExplanation> {
  optionsSchema ??= buildOptionsSchema();
  const parsed = parseOptions(optionsSchema, options, "explainLookup");
  const callerFilter = options.filter === undefined ? undefined : validateMetadataFilter(options.filter);
  const config = explainConfig(knowledgeBase.retriever.config, options.config);
  const searchedTo = Math.max(parsed.searchedTo ?? defaultSearchedTo, config.retrieveK);
  const port = knowledgeBase.store.port;
  const target = await resolveExpected({
    expected: parsed.expected,
    port,
    ...(knowledgeBase.store.stateDirectory ? { stateDirectory: knowledgeBase.store.stateDirectory } : {}),
  });
  const recorded = await recordLookup({
    searchPort: port,
    ...(knowledgeBase.l0Index ? { l0Index: knowledgeBase.l0Index } : {}),
    config,
    query,
    ...(callerFilter ? { filter: callerFilter } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const { result } = recorded;
  // A failed search is reported in the outcome (deeper_search_failed), never read as "no hits";
  // an aborted signal still rejects.
  const search = async (request: { query: string; filter?: MetadataFilter; scopeFilter?: MetadataFilter }): Promise<DeeperSearch> => {
    try {
      const hits = await port.search({ ...request, topK: searchedTo, ...(options.signal ? { signal: options.signal } : {}) });
      return { candidates: normalizeHits(hits).candidates };
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const code = LookupKnowledgeError.isInstance(error) ? error.code : "search_failed";
      return { failed: { code, message: errorMessage(error) } };
    }
  };
  let unfiltered: Promise<DeeperSearch> | undefined;
  const metadataOf = async (key: string): Promise<Record<string, unknown> | SearchFailure | undefined> => {
    const index = Number(key.slice(key.lastIndexOf("#chunk-") + "#chunk-".length));
    const record = target.records.get(index);
    if (record || canFetchRecords(port)) return record?.metadata;
    unfiltered ??= search({ query: result.query });
    const searched = await unfiltered;
    if ("failed" in searched) return searched;
    return searched.candidates.find((candidate) => candidate.evidenceKey === key)?.metadata;
  };
  const usedAttempt = result.found ? result.retrievalTrace.attempts.find((attempt) => attempt.outcome === "usable")?.attempt : undefined;
  const attempts: ExplainAttempt[] = [];
  for (const trace of result.retrievalTrace.attempts) {
    const record = recorded.attempts.find((attempt) => attempt.attempt === trace.attempt);
    let deeper: Promise<DeeperSearch> | undefined;
    const used = trace.attempt === usedAttempt;
    attempts.push(
      await explainAttempt(target, {
        trace,
        record,
        used,
        contextPack: used ? recorded.contextPack : undefined,
        config,
        callerFilter,
        searchDeeper: () =>
          (deeper ??= search({
            query: trace.query,
            ...(trace.filter ? { filter: trace.filter } : {}),
            ...(record?.scopeFilter ? { scopeFilter: record.scopeFilter } : {}),
          })),
        metadataOf,
        searchedTo,
      }),
    );
  }
  const { records, ...expected } = target;
  void records;
  const final = attempts.find((attempt) => attempt.used) ?? attempts[attempts.length - 1];
  const found = final?.used === true && ["included", "truncated_by_budget"].includes(final.outcome.kind);
  const summary = !config.l1Enabled
    ? "No attempt ran: semantic retrieval (L1) is disabled by rag.l1-enabled=false."
    : final
      ? `${found ? "Reached the model" : "Did not reach the model"} on attempt ${final.index} of ${attempts.length}: ${final.outcome.message}`
      : "No attempt ran.";
  return { query, expected, found, attempts, summary, result };
}
