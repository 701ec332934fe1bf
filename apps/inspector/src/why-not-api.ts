import { explainLookup, type LookupExplanation } from "@lookup-knowledge/agent-tool";
import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { InspectorRequestError } from "./inspector-request-error.js";
import { asBadRequest } from "./as-bad-request.js";
import { readFilter } from "./playground-api.js";
import { readConfig } from "./read-config.js";
import { readOnlyPort } from "./read-only-port.js";

/**
 * `POST /api/why-not` with `{ "query", "expected", "filter"?, "config"? }`: `explainLookup`
 * for the chosen document (a source path, document id or evidence key): for each attempt,
 * where it stood and why it did or did not reach the model. It searches through the
 * read-only port, with no trace store: nothing is recorded or written.
 */
export async function explainWhyNot(
  knowledgeBase: KnowledgeBase,
  input: { query?: unknown; expected?: unknown; filter?: unknown; config?: unknown },
): Promise<LookupExplanation> {
  if (typeof input.query !== "string" || input.query.trim() === "") throw invalid("query must be a non-empty string.");
  if (typeof input.expected !== "string" || input.expected.trim() === "") {
    throw invalid("expected must name a document: its source path (billing/refunds.md), document id or evidence key.");
  }
  const filter = readFilter(input.filter);
  const config = readConfig(knowledgeBase.retriever.config, input.config);
  try {
    return await explainLookup(
      {
        retriever: { config },
        store: { port: readOnlyPort(knowledgeBase.store.port), stateDirectory: knowledgeBase.store.stateDirectory },
        l0Index: knowledgeBase.l0Index,
      },
      input.query,
      { expected: input.expected, ...(filter ? { filter } : {}) },
    );
  } catch (error) {
    throw asBadRequest(error);
  }
}

function invalid(message: string): InspectorRequestError {
  return new InspectorRequestError({ status: 400, code: "invalid_request", message });
}
