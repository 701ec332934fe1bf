import type { LookupResult, MetadataFilter, RagConfig } from "@lookup-knowledge/core";
import { createKnowledgeRetriever, type KnowledgeRetriever } from "@lookup-knowledge/agent-tool";
import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { compareLookups, type BlockChange } from "./compare-lookups.js";
import { InspectorRequestError } from "./inspector-request-error.js";
import { asBadRequest } from "./as-bad-request.js";
import { flatRagConfig } from "./override-rag-config.js";
import { readConfig } from "./read-config.js";
import { readOnlyPort } from "./read-only-port.js";

/** One playground run: the configuration it used (flat `rag.*` keys) and the whole result. */
export interface PlaygroundRun {
  config: Record<string, number | boolean>;
  result: LookupResult;
}

/** The answer of `POST /api/compare`: the run under A, the run under B, and how each block changed between them. */
export interface PlaygroundComparison {
  a: PlaygroundRun;
  b: PlaygroundRun;
  changes: BlockChange[];
}

/**
 * Runs `query` on a retriever of its own, built over the knowledge base's search port and
 * L0 index with the overridden configuration: no trace store (a playground lookup is not
 * recorded), and a port that can only search (the playground cannot write to the index).
 */
export async function runPlaygroundLookup(
  knowledgeBase: KnowledgeBase,
  input: { query?: unknown; filter?: unknown; config?: unknown },
): Promise<PlaygroundRun> {
  const query = readQuery(input.query);
  const config = readConfig(knowledgeBase.retriever.config, input.config);
  const filter = readFilter(input.filter);
  const retriever = playgroundRetriever(knowledgeBase, config);
  try {
    const result = await retriever.lookup(query, filter ? { filter } : {});
    return { config: flatRagConfig(config), result };
  } catch (error) {
    throw asBadRequest(error);
  }
}

/** A retriever over the knowledge base's port and L0 index with `config`: no trace store, and a port that can only search. */
export function playgroundRetriever(knowledgeBase: KnowledgeBase, config: RagConfig): KnowledgeRetriever {
  return createKnowledgeRetriever({ searchPort: readOnlyPort(knowledgeBase.store.port), l0Index: knowledgeBase.l0Index, config });
}

/** Runs the same query under configurations A and B, and says which blocks changed rank, entered or left. */
export async function comparePlaygroundLookups(
  knowledgeBase: KnowledgeBase,
  input: { query?: unknown; filter?: unknown; a?: unknown; b?: unknown },
): Promise<PlaygroundComparison> {
  const a = await runPlaygroundLookup(knowledgeBase, { query: input.query, filter: input.filter, config: input.a });
  const b = await runPlaygroundLookup(knowledgeBase, { query: input.query, filter: input.filter, config: input.b });
  return { a, b, changes: compareLookups(a.result, b.result) };
}

function readQuery(value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") throw invalid("query must be a non-empty string.");
  return value;
}

/** A request's `filter`: an object, or none. */
export function readFilter(value: unknown): MetadataFilter | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw invalid('filter must be an object, e.g. {"category": "billing"}.');
  return Object.keys(value).length === 0 ? undefined : (value as MetadataFilter);
}

function invalid(message: string): InspectorRequestError {
  return new InspectorRequestError({ status: 400, code: "invalid_request", message });
}
