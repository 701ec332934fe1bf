import { LookupKnowledgeError, type FlatRagConfig, type RagConfigInput } from "@lookup-knowledge/core";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";
import type { AgentToolErrorCode } from "../agent-tool-error-code.js";

/** Whether settings give `rag.reference-threshold` (flat or typed) themselves. */
export function setsReferenceThreshold(config: RagConfigInput | FlatRagConfig | undefined): boolean {
  if (!config) return false;
  const record = config as Record<string, unknown>;
  return record["rag.reference-threshold"] !== undefined || record["referenceThreshold"] !== undefined;
}

/**
 * The settings a retriever over `port` resolves: when they do not set
 * `rag.reference-threshold` and the port names the threshold its judgement is meant to be
 * read at (the local index's model), that threshold; otherwise the settings as given.
 */
export function withPortThreshold(
  config: RagConfigInput | FlatRagConfig | undefined,
  port: KnowledgeSearchPort,
): RagConfigInput | FlatRagConfig {
  const given = config ?? {};
  const threshold: unknown = port.referenceThreshold;
  if (setsReferenceThreshold(given) || threshold === undefined) return given;
  if (typeof threshold !== "number" || !Number.isFinite(threshold) || threshold < 0 || threshold > 1) {
    throw new LookupKnowledgeError<AgentToolErrorCode>({
      code: "invalid_retriever_options",
      message: `The search port names referenceThreshold ${String(threshold).slice(0, 40)}; it must be a number in 0..1 (or set rag.reference-threshold in the settings).`,
    });
  }
  return { ...given, referenceThreshold: threshold };
}
