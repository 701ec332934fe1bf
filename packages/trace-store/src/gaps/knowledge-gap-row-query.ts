/** Which lookups `TraceDatabase.knowledgeGapRows` aggregates. */
export interface KnowledgeGapRowQuery {
  /** Calls that started at or after this time. */
  since: Date;
  /** Calls that started before this time. */
  until: Date;
  /** At most this many lookup ids per distinct query, newest first. */
  maxLookupIds: number;
}
