/**
 * What `lookup-knowledge gaps` and the inspector's Gaps view show (issue 37): the refused and
 * low-relevance lookups of a period, grouped by topic, largest group first. Plain JSON data:
 * the CLI's `gaps --json` prints it as is.
 */
export interface KnowledgeGapReport {
  /** The period read, ISO 8601: calls that started at or after `since` and before `until`. */
  since: string;
  until: string;
  /** How many refused (`no_evidence`) and low-relevance lookups the period holds: what was grouped. */
  lookupsRead: number;
  /** How many distinct stored queries those lookups had (a hashed query counts by its hash). */
  distinctQueries: number;
  /**
   * `shown`: examples hold query text. `hashed`: queries are kept as keyed hashes (or the
   * settings say `traces.store-query: hash`), so no query text is shown anywhere in the report;
   * groups were built from the stored L0 hints and sources only, and `note` says so.
   */
  queryText: "shown" | "hashed";
  /**
   * Where "salient" (rare) terms were judged: `knowledge-base` by the index's document
   * frequencies, `records` by how few of the period's distinct queries hold them.
   */
  salience: "knowledge-base" | "records";
  /** Said to the reader beside the groups (hash mode, no records, ...). */
  note?: string;
  groups: KnowledgeGapGroup[];
}

/**
 * `refused-page`: a page scored just under the threshold, at least half of it: a likely false
 * refusal to review. `missing-page`: nothing came that close (or no score was recorded), or
 * none of the group's lookups was refused (answered with low relevance only). The score read
 * is the best of the group's refused lookups.
 */
export type KnowledgeGapKind = "missing-page" | "refused-page";

/** Queries that share their salient terms: one topic the knowledge base does not answer. */
export interface KnowledgeGapGroup {
  /**
   * Stable and deterministic: the same records give the same id (`gap-` and a hash of the
   * group's sorted distinct stored queries; under `hash`, a query still kept as text counts by
   * its oldest listed lookup id instead, so the id is no unkeyed hash of its text).
   */
  id: string;
  kind: KnowledgeGapKind;
  /** Lookups in the group: refused plus low-relevance. */
  lookups: number;
  /** Of them, refused (`no_evidence`). */
  refusedLookups: number;
  /** Of them, answered with evidence below the threshold (relevance `low`). */
  lowRelevanceLookups: number;
  distinctQueries: number;
  /** ISO 8601. */
  firstSeen: string;
  lastSeen: string;
  /**
   * The salient terms the group's queries share, most shared first. In hash mode they come
   * from the hints, as stored (hashed terms `hash:...`, or document-side domains and titles).
   */
  terms: string[];
  /** Up to five query texts, most frequent first; `[]` in hash mode. */
  examples: string[];
  /**
   * The pages that came closest, best score first: the page behind each lookup's best attempt
   * (its `topSource`, with that attempt's top score; records written before it was kept have
   * none) and, of each query's newest lookup, the L0 hints' entries and, when it was answered
   * with low relevance, its evidence's sources; at most five. In a `refused-page` group whose
   * records kept it, the page behind the refused lookups' best score (`bestRefusedScore`) is
   * among them unless five pages scored higher.
   */
  closest: KnowledgeGapPage[];
  /** The best score (answerability, 0..1) any of the group's lookups reached; null when none was scored. */
  bestScore: number | null;
  /**
   * The best score of the group's refused lookups alone (null when none was refused or scored):
   * what `kind` reads (a low-relevance lookup was answered: it never makes a page refused).
   */
  bestRefusedScore: number | null;
  /** The reference threshold the lookups ran with (the highest, when they differ); null when not recorded. */
  threshold: number | null;
  /** The group's lookup ids, newest first, at most `maxLookupIds` (default 50). */
  lookupIds: string[];
  /** Lookups per UTC day (`YYYY-MM-DD`), oldest first, only days with lookups. */
  perDay: Array<{ day: string; lookups: number }>;
}

/** A page that came close to a group's queries. */
export interface KnowledgeGapPage {
  source: string;
  title?: string;
  /**
   * The best top score of the lookups whose best attempt scored it, or that handed it out as
   * low-relevance evidence (comparable with the threshold); null when only an L0 hint's entry
   * named it.
   */
  bestScore: number | null;
}
