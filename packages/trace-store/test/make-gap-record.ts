import type { ToolInvocationRecord } from "../src/record/tool-invocation-record.js";

/** What a gap test says about one lookup; the rest of the record is filled in. */
export interface GapLookup {
  id: string;
  query: string;
  createdAt: Date;
  /** `refused`: no_evidence; `low`: found with relevance `low`; `answered`: found, relevance high. */
  outcome: "refused" | "low" | "answered";
  topScore?: number;
  /** The page behind the attempt's top score (issue 37 item 1). */
  topSource?: { source: string; title?: string };
  threshold?: number;
  keywords?: string[];
  entries?: Array<{ source: string; title?: string }>;
  evidence?: Array<{ source: string; title?: string }>;
  error?: string;
}

/** A record of `lookup`, shaped as the retriever writes it. */
export function makeGapRecord(lookup: GapLookup): ToolInvocationRecord {
  const found = lookup.outcome !== "refused";
  const evidence = (found ? (lookup.evidence ?? [{ source: "docs/answered.md" }]) : []).map((block, index) => ({
    evidenceKey: `${block.source}#${index}`,
    source: block.source,
    ...(block.title ? { title: block.title } : {}),
    retrievalLayer: "L1" as const,
    score: 0.5,
    hitReasons: [],
    preview: "a preview of the evidence",
  }));
  return {
    id: lookup.id,
    toolName: "lookup_knowledge",
    query: lookup.query,
    transformedQuery: lookup.query,
    createdAt: lookup.createdAt.toISOString(),
    durationMs: 12,
    found,
    evidenceStatus: found ? "evidence" : "no_evidence",
    retrievalLayer: "L1",
    fallbackReason: null,
    candidateCount: 3,
    evidenceCount: evidence.length,
    error: lookup.error ?? null,
    retrievalDetails: {
      hints: {
        keywords: lookup.keywords ?? [],
        domains: [],
        entities: [],
        titles: [],
        entries: (lookup.entries ?? []).map((entry, index) => ({ id: `entry-${index}`, ...entry })),
      },
      retrievalLayer: "L1",
      l1Enabled: true,
      attempts: [
        {
          attempt: 1,
          candidateCount: 3,
          evidenceCount: evidence.length,
          ...(lookup.topScore === undefined ? {} : { topScore: lookup.topScore }),
          ...(lookup.topSource === undefined ? {} : { topSource: lookup.topSource }),
          outcome: found ? "usable" : "low_quality",
          rejectedHits: 0,
          durationMs: 10,
        },
      ],
      fallbackReason: null,
      ...(lookup.threshold === undefined ? {} : { referenceThreshold: lookup.threshold }),
      candidateCount: 3,
      evidenceCount: evidence.length,
      relevanceLevel: lookup.outcome === "refused" ? "none" : lookup.outcome === "low" ? "low" : "high",
      evidence,
      rerank: [],
    },
  };
}
