/**
 * The `gap_fields` column of `tool_invocation`: what the database derives from a row's
 * `retrieval_details` when it is written (the function `lookup_knowledge_gap_fields` of
 * migration 0002). Each field is null when the details do not hold it as the right type.
 */
export interface GapFields {
  /** The best `topScore` of the lookup's attempts (the first three). */
  score: number | null;
  /** The `topSource` of the attempt with that score (the first on a tie): the page behind it. */
  source: string | null;
  title: string | null;
  /** `referenceThreshold`: the answerability threshold the lookup was judged by. */
  threshold: number | null;
  /** `relevanceLevel`: `high`, `low` or `none`. */
  level: string | null;
}
