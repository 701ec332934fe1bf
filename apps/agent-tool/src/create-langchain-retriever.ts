import { CallbackManager, parseCallbackConfigArg, type CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import type { Document } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { ensureConfig, type RunnableConfig } from "@langchain/core/runnables";
import { LookupKnowledgeError, type LookupResult, type MetadataFilter } from "@lookup-knowledge/core";
import { validateMetadataFilter } from "@lookup-knowledge/search-port";
import type { AgentToolErrorCode } from "./agent-tool-error-code.js";
import type { KnowledgeRetriever } from "./create-knowledge-retriever.js";
import { lookupResultToDocuments, type KnowledgeDocumentMetadata } from "./lookup-result-to-documents.js";

/** The name of the custom event each retriever run dispatches with the whole `LookupResult`. */
export const lookupKnowledgeResultEvent = "lookup_knowledge_result";

export interface LangChainRetrieverOptions extends BaseRetrieverInput {
  /** A filter imposed on every lookup of this retriever (tenant, access scope); never dropped (R12). */
  filter?: MetadataFilter;
}

/** One lookup as documents, with the result they came from. */
export interface DocumentsWithResult {
  documents: Document<KnowledgeDocumentMetadata>[];
  result: LookupResult;
}

/**
 * A LangChain retriever over a `KnowledgeRetriever`. Each run is one lookup: its documents
 * are the blocks of the context pack (see `lookupResultToDocuments`), none when
 * `found=false`, and the whole `LookupResult` is dispatched in the run as the custom event
 * `lookup_knowledge_result` (`handleCustomEvent`, with the retriever run's id).
 */
export class LangChainKnowledgeRetriever extends BaseRetriever<KnowledgeDocumentMetadata> {
  static override lc_name(): string {
    return "LookupKnowledgeRetriever";
  }

  override lc_namespace = ["lookup_knowledge", "retrievers"];

  readonly #knowledge: KnowledgeRetriever;
  readonly #filter: MetadataFilter | undefined;

  constructor(knowledge: KnowledgeRetriever, filter: MetadataFilter | undefined, fields: BaseRetrieverInput) {
    super(fields);
    this.#knowledge = knowledge;
    this.#filter = filter;
  }

  /** The documents of one lookup. The run's `signal` (and `timeout`) reach the lookup. */
  override async invoke(input: string, options?: RunnableConfig): Promise<Document<KnowledgeDocumentMetadata>[]> {
    return (await this.lookupWithDocuments(input, options)).documents;
  }

  /**
   * One retriever run, like `invoke`, that also returns the `LookupResult` the documents
   * came from (for `found=false` the documents are empty; the result says why).
   */
  async lookupWithDocuments(query: string, options?: RunnableConfig): Promise<DocumentsWithResult> {
    // As BaseRetriever.invoke opens a run, but keeping the config: its `_getRelevantDocuments`
    // is only given the run manager, and the lookup needs the run's signal as well.
    const config = ensureConfig(parseCallbackConfigArg(options) as RunnableConfig);
    const callbackManager = await CallbackManager.configure(
      config.callbacks,
      this.callbacks,
      config.tags,
      this.tags,
      config.metadata,
      this.metadata,
      { verbose: this.verbose ?? false },
    );
    const runManager = await callbackManager?.handleRetrieverStart(
      this.toJSON(),
      query,
      config.runId,
      undefined,
      undefined,
      undefined,
      config.runName,
    );
    try {
      const found = await this.#retrieve(query, runManager, config.signal);
      await runManager?.handleRetrieverEnd(found.documents);
      return found;
    } catch (error) {
      await runManager?.handleRetrieverError(error);
      throw error;
    }
  }

  /** For callers that drive the run themselves; without a config there is no signal to pass on. */
  override async _getRelevantDocuments(
    query: string,
    runManager?: CallbackManagerForRetrieverRun,
  ): Promise<Document<KnowledgeDocumentMetadata>[]> {
    return (await this.#retrieve(query, runManager, undefined)).documents;
  }

  async #retrieve(
    query: string,
    runManager: CallbackManagerForRetrieverRun | undefined,
    signal: AbortSignal | undefined,
  ): Promise<DocumentsWithResult> {
    const result = await this.#knowledge.lookup(query, {
      ...(this.#filter ? { filter: this.#filter } : {}),
      ...(signal ? { signal } : {}),
    });
    await runManager?.handleCustomEvent(lookupKnowledgeResultEvent, result, runManager.runId);
    return { documents: lookupResultToDocuments(result), result };
  }
}

/**
 * Turns a `KnowledgeRetriever` into a LangChain `BaseRetriever` that returns `Document`s:
 * usable in LCEL chains, with LangChain callbacks and tracing. `lookupWithDocuments` gives
 * the documents and the whole `LookupResult` at once; a callback handler gets the result as
 * the custom event `lookup_knowledge_result`. A malformed bound filter is refused here.
 */
export function createLangChainRetriever(
  retriever: KnowledgeRetriever,
  options: LangChainRetrieverOptions = {},
): LangChainKnowledgeRetriever {
  if (typeof retriever?.lookup !== "function") {
    throw new LookupKnowledgeError<AgentToolErrorCode>({
      code: "invalid_argument",
      message: "createLangChainRetriever needs a KnowledgeRetriever with a lookup(query, options) method",
    });
  }
  const { filter, callbacks, tags, metadata, verbose } = options;
  const bound = filter === undefined ? undefined : validateMetadataFilter(filter);
  return new LangChainKnowledgeRetriever(retriever, bound, {
    ...(callbacks === undefined ? {} : { callbacks }),
    ...(tags === undefined ? {} : { tags }),
    ...(metadata === undefined ? {} : { metadata }),
    ...(verbose === undefined ? {} : { verbose }),
  });
}
