import type { RetrievalLayer } from "@lookup-knowledge/core";

/** One evidence block in a trace record: its identity and why it was chosen, not its text (R27, R28). */
export interface EvidenceSummary {
  evidenceKey: string;
  source: string;
  title?: string;
  retrievalLayer: RetrievalLayer;
  /** The port's normalised similarity, when known. */
  score?: number;
  hitReasons: string[];
  /** The first characters of the content (at most 160, whitespace collapsed, `…` when cut). */
  preview: string;
  /**
   * When the block was packed for the model: the length and SHA-256 (hex, of its UTF-8) of the
   * content the model read, whether the budget cut it and, when it did, its allotment. No text
   * (R28): the chunk's content, cut with `truncateContent(content, allotment)` when truncated,
   * gives back what the model read if its digest matches.
   */
  packed?: { length: number; sha256: string; truncated: boolean; allotment?: number };
}
