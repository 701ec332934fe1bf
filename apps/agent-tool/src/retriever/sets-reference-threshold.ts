import type { FlatRagConfig, RagConfigInput } from "@lookup-knowledge/core";
import type { KnowledgeSearchPort } from "@lookup-knowledge/search-port";

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
  const threshold = port.referenceThreshold;
  if (setsReferenceThreshold(given) || typeof threshold !== "number" || !Number.isFinite(threshold)) return given;
  return { ...given, referenceThreshold: threshold };
}
