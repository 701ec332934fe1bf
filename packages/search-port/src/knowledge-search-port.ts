import type { SearchHit } from "@lookup-knowledge/core";
import type { SearchRequest } from "./search-request.js";

/**
 * The boundary every semantic fetch goes through (R13). The orchestrator knows only this
 * interface; vendor SDK logic lives in adapters that implement it.
 *
 * A port returns at most `request.topK` hits, best first, each with a normalised score in
 * 0..1 when it has one, and only hits whose metadata satisfies `request.filter`.
 */
export interface KnowledgeSearchPort {
  search(request: SearchRequest): Promise<SearchHit[]>;
  /**
   * For a port whose top score is an answerability judgement (the local index): the
   * threshold that judgement is meant to be read at. A retriever whose settings do not set
   * `rag.reference-threshold` uses it instead of the default; ports with plain similarity
   * scores leave it out.
   */
  readonly referenceThreshold?: number;
}
