/** A block as packed for the agent: all of its metadata, its content possibly truncated (R24, R25). */
export interface PackedBlock {
  evidenceKey: string;
  source: string;
  title?: string;
  breadcrumb?: string;
  hitReasons: string[];
  /** The hit reasons as one plain-language line for the model (`EvidenceBlock.why`). */
  why?: string;
  content: string;
  truncated: boolean;
  originalLength: number;
  /** When truncated: the characters the budget gave it (`truncateContent(content, allotment)` rebuilds it). */
  allotment?: number;
}

/** The compact context for the agent, under `rag.context-budget` characters of content. */
export interface ContextPack {
  blocks: PackedBlock[];
  /** Characters of content the budget allowed. */
  budget: number;
  /** Characters of content packed. */
  used: number;
  summary: {
    includedSources: string[];
    omittedSources: string[];
    included: string[];
    omitted: Array<{ evidenceKey: string; source: string; reason: string }>;
    truncated: string[];
  };
}
