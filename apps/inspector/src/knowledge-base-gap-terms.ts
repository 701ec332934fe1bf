import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { lexicalTerms, queryTerms } from "@lookup-knowledge/text";
import type { AnalyzedTerm } from "@lookup-knowledge/trace-store";
import type { GapTerms } from "./gaps-api.js";

/**
 * How the Gaps view splits and weighs query terms when the caller gives none: as
 * `lookup-knowledge gaps` does, so both show the same groups. Each word retrieval would look
 * for (`queryTerms`: stop words out, Chinese split into words), as the index holds it
 * (`lexicalTerms`: stemmed), shown as the word asked; with the embedded index, its document
 * frequencies say how rare each term is in the knowledge base (read at each call: an ingest
 * while the page is served changes them), else every term weighs the same.
 */
export function knowledgeBaseGapTerms(knowledgeBase: Pick<KnowledgeBase, "store">): GapTerms {
  const analyze = (text: string): AnalyzedTerm[] =>
    queryTerms(text).flatMap((word) => lexicalTerms(word.display).map((term) => ({ term, shown: word.display })));
  const index = knowledgeBase.store.localIndex;
  if (!index) return { analyze };
  const documentCount = index.scopeSize();
  return { analyze, documentFrequencies: { documentCount, frequency: (term) => Math.round(index.termShare(term) * documentCount) } };
}
