import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { lexicalTerms } from "@lookup-knowledge/text";
import type { GapTerms } from "./gaps-api.js";

/**
 * How the Gaps view splits query terms when the caller gives none: the index's own analyzer
 * (`lexicalTerms`: normalisation, stop words, stemming, Chinese words), so queries group by the
 * terms retrieval compared.
 */
export async function knowledgeBaseGapTerms(_knowledgeBase: KnowledgeBase): Promise<GapTerms> {
  return { analyze: (text) => lexicalTerms(text) };
}
