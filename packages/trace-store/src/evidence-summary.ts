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
}
