// The shapes the /api/ endpoints answer with (see the package README, "HTTP API").

export interface Info {
  store: string;
  documents: number;
  l0Entries: number;
  config: Record<string, number | boolean>;
  ragKeys: string[];
  queryStorage: "text" | "hash";
  traces: boolean;
}

export interface TraceRow {
  id: string;
  createdAt: string;
  query: string;
  queryIsHash: boolean;
  found: boolean;
  retrievalLayer: string;
  fallbackReason: string | null;
  evidenceCount: number;
  durationMs: number;
}

export interface Answerability {
  [key: string]: unknown;
}

export interface RerankEntry {
  rank: number;
  evidenceKey: string;
  source: string;
  baseScore?: number;
  finalScore: number;
  boosts: Array<{ signal: string; amount: number; reason?: string }>;
}

export interface AttemptView {
  attempt: number;
  filter?: unknown;
  l0Filter?: unknown;
  candidateCount: number;
  evidenceCount: number;
  topScore?: number;
  answerability?: Answerability;
  /** Set when the L0 filter's attempt was refused for leaving the scope's best match out (the share it kept). */
  leftOutShare?: number;
  outcome: string;
  error?: string | { code: string; message: string };
  durationMs: number;
}

export interface Hints {
  keywords: string[];
  domains: string[];
  otherDomains?: string[];
  entities: string[];
  titles: string[];
  entries: Array<{ id: string; source: string; title?: string; domain?: string }>;
}

export interface TraceRecord extends TraceRow {
  transformedQuery: string;
  toolName: string;
  evidenceStatus: string;
  candidateCount: number;
  error: string | null;
  recordedAt: string | null;
  retrievalDetails: {
    hints: Hints;
    l1Enabled: boolean;
    attempts: AttemptView[];
    /** The `rag.reference-threshold` the lookup ran with; absent in older records. */
    referenceThreshold?: number;
    relevanceLevel: string;
    evidence: Array<{ evidenceKey: string; source: string; title?: string; score?: number; hitReasons: string[]; preview: string }>;
    rerank: RerankEntry[];
    contextPack?: { includedSources: string[]; omittedSources: string[]; truncated: string[] };
  };
  /** Per evidence block: the exact content the model read, rebuilt from the index and checked against the trace's digest. */
  modelContent: Array<{ status: "exact"; text: string } | { status: "changed" | "unknown"; reason: string }>;
}

export interface PackedBlock {
  evidenceKey: string;
  source: string;
  title?: string;
  hitReasons: string[];
  content: string;
  truncated: boolean;
}

export interface LookupResult {
  query: string;
  found: boolean;
  message: string;
  relevanceLevel: string;
  evidenceBlocks: Array<{ evidenceKey: string; source: string; title?: string; rank: number; score?: number; rankScore: number }>;
  rerankTrace?: { method: string; entries: RerankEntry[] };
  contextPack?: {
    blocks: PackedBlock[];
    summary: {
      includedSources: string[];
      omittedSources: string[];
      omitted: Array<{ evidenceKey: string; source: string; reason: string }>;
    };
  };
  retrievalTrace: { hints: Hints; attempts: AttemptView[]; referenceThreshold: number; fallbackReason?: string };
}

export interface PlaygroundRun {
  config: Record<string, number | boolean>;
  result: LookupResult;
}

export interface BlockChange {
  evidenceKey: string;
  source: string;
  rankA: number | null;
  rankB: number | null;
  change: "entered" | "left" | "moved" | "same";
}

export interface ThresholdRow {
  threshold: number;
  answerableFound: number;
  answerableAsked: number;
  outOfScopeRefused: number;
  outOfScopeAsked: number;
  balancedAccuracy: number;
}

export interface CalibrationView {
  referenceThreshold: number;
  samples: Array<{ id: string; answerable: boolean; gateScore: number | null; found: boolean }>;
  tradeOff: ThresholdRow[];
  atThreshold: ThresholdRow;
  evaluation: {
    scores: { ndcg10: number; recall5: number; mrr10: number };
    answerable: { asked: number; found: number };
    outOfScope: { asked: number; refused: number };
  };
}

export interface ExplainOutcome {
  kind: string;
  message: string;
  evidenceKey?: string;
  rank?: number;
  score?: number;
  baseScore?: number;
  boosts?: Array<{ signal: string; amount: number; reason?: string }>;
  [number: string]: unknown;
}

export interface LookupExplanation {
  query: string;
  expected: { input: string; kind: string; docId: string; source?: string; inIndex: boolean; chunkCount?: number };
  found: boolean;
  summary: string;
  attempts: Array<{
    index: number;
    filter?: unknown;
    attemptOutcome: string;
    used: boolean;
    outcome: ExplainOutcome;
    chunks?: ExplainOutcome[];
  }>;
}

export interface SourceDocument {
  docId: string;
  source: string;
  title?: string;
}

export interface SourceSearch {
  documents: SourceDocument[];
  total: number;
}
