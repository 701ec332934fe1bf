import type { EvidenceStatus, FallbackReason, RetrievalLayer } from "@lookup-knowledge/core";
import type { RetrievalDetails } from "./retrieval-details.js";

/** One call of the `lookup_knowledge` tool, as stored (R27). Plain JSON data. */
export interface ToolInvocationRecord {
  id: string;
  toolName: string;
  /** The query as the tool received it. */
  query: string;
  /** The query the first L1 request used. */
  transformedQuery: string;
  /** When the call started, ISO 8601. */
  createdAt: string;
  durationMs: number;
  found: boolean;
  evidenceStatus: EvidenceStatus;
  retrievalLayer: RetrievalLayer;
  fallbackReason: FallbackReason | null;
  candidateCount: number;
  evidenceCount: number;
  /** Why the call failed outright, when it did. */
  error: string | null;
  retrievalDetails: RetrievalDetails;
}
