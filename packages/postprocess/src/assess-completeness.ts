import type { CompletenessHint, ContextPack, RelevanceLevel } from "@lookup-knowledge/core";

function count(amount: number, singular: string, plural: string): string {
  return `${amount} ${amount === 1 ? singular : plural}`;
}

/**
 * Whether the agent sees all the evidence that was found. `partial` when the context pack
 * truncated or omitted blocks, when chunks were dropped by the per-document cap or the
 * return width, when port hits were rejected as malformed, or when the evidence's relevance is
 * `low` (it may not answer the question); each cause gets a note that names the count and the
 * setting involved. Otherwise `complete`, with no notes.
 */
export function assessCompleteness(input: {
  contextPack: ContextPack;
  droppedByCap: number;
  droppedByReturnN: number;
  rejectedHits: number;
  /** The relevance level of the evidence: `low` adds a note that it may not answer the question. */
  relevanceLevel?: RelevanceLevel | undefined;
}): CompletenessHint {
  const { contextPack, droppedByCap, droppedByReturnN, rejectedHits } = input;
  const notes: string[] = [];
  if (input.relevanceLevel === "low") {
    notes.push(
      "The evidence may not answer the question: it is the closest the search found, but the search judged it unlikely to answer.",
    );
  }
  const truncated = contextPack.summary.truncated.length;
  const omitted = contextPack.summary.omitted.length;
  if (truncated > 0) {
    notes.push(
      `${count(truncated, "evidence block was", "evidence blocks were")} truncated to fit rag.context-budget (${
        contextPack.budget
      } characters).`,
    );
  }
  if (omitted > 0) {
    notes.push(
      `${count(
        omitted,
        "evidence block was",
        "evidence blocks were",
      )} omitted from the context by rag.context-budget (${contextPack.budget} characters).`,
    );
  }
  if (droppedByCap > 0) {
    notes.push(
      `${count(
        droppedByCap,
        "chunk was",
        "chunks were",
      )} dropped because their document already had the most chunks allowed by rag.max-chunks-per-document.`,
    );
  }
  if (droppedByReturnN > 0) {
    notes.push(`${count(droppedByReturnN, "ranked candidate was", "ranked candidates were")} left out by rag.return-n.`);
  }
  if (rejectedHits > 0) {
    notes.push(`${count(rejectedHits, "search hit was", "search hits were")} rejected as malformed (see the retrieval trace).`);
  }
  return { status: notes.length > 0 ? "partial" : "complete", notes };
}
