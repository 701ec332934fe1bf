import type { Answerability } from "./answerability.js";

/** Why a candidate or block was chosen: a named signal and a readable detail. */
export interface HitReason {
  signal: HitSignal;
  /** For the trace and the artifact, in the pipeline's words: `keyword "refund" (L0 hint)`. */
  detail: string;
  /**
   * The word, title or category the signal matched, as written (`refund`, `Refunds`,
   * `billing`); absent for `semantic`. What the model's plain-language line is written from.
   */
  term?: string;
}

export type HitSignal = "semantic" | "title" | "keyword" | "entity" | "domain" | "heading" | "query_term";

/** One port hit, normalised and with its identity (R14). */
export interface Candidate {
  evidenceKey: string;
  docId?: string;
  chunkIndex?: number;
  vectorId?: string;
  source: string;
  title?: string;
  breadcrumb?: string;
  category?: string;
  content: string;
  /** The port's normalised similarity (0..1), when it gave one. */
  score?: number;
  /** The port's judgement of whether its best hit answers the query (first hit only). */
  answerability?: Answerability;
  /** The position the port returned it at, 0 first. */
  portRank: number;
  hitReasons: HitReason[];
  metadata: Record<string, unknown>;
}

/** A hit the pipeline refused, and why (missing content, bad score, ...). */
export interface RejectedHit {
  index: number;
  id?: string;
  reason: string;
}
