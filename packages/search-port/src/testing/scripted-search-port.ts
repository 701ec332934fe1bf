import type { KnowledgeSearchPort } from "../knowledge-search-port.js";
import type { SearchRequest } from "../search-request.js";

/** A `KnowledgeSearchPort` that answers from a script and remembers what it was asked. */
export interface ScriptedSearchPort extends KnowledgeSearchPort {
  /**
   * Every request, in call order, recorded before it is answered: a shallow copy of the
   * request (the same `signal`) whose `filter` and `scopeFilter` are deep copies, so later changes by the caller
   * do not rewrite history.
   */
  readonly requests: SearchRequest[];
  /** How many times `search` was called. */
  readonly calls: number;
}
