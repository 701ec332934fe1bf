import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { gapQueryTerms } from "@lookup-knowledge/text";
import type { GapTerms } from "./gaps-api.js";

/**
 * How the Gaps view splits and weighs query terms when the caller gives none: text's
 * `gapQueryTerms`, as `lookup-knowledge gaps` does, so both show the same groups. With the
 * embedded index, its record counts say how rare each term is in the knowledge base (read at
 * each call: an ingest while the page is served changes them), else every term weighs the same.
 */
export function knowledgeBaseGapTerms(knowledgeBase: Pick<KnowledgeBase, "store">): GapTerms {
  const index = knowledgeBase.store.localIndex;
  return gapQueryTerms(index ? { termShare: (text) => index.termShare(text), scopeSize: () => index.scopeSize() } : undefined);
}
