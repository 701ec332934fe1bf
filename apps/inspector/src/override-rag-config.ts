import { ragConfigKey, ragConfigKeys, resolveRagConfig, type FlatRagConfig, type RagConfig } from "@lookup-knowledge/core";

/** The flat `rag.*` keys and values of a resolved configuration. */
export function flatRagConfig(config: Readonly<RagConfig>): Record<string, number | boolean> {
  const flat: Record<string, number | boolean> = {};
  for (const [name, value] of Object.entries(config)) flat[ragConfigKey(name as keyof RagConfig)] = value as number | boolean;
  return flat;
}

/**
 * The configuration `overrides` (flat `rag.*` keys) make of `base`: each key given replaces
 * its value; `rag.top-k` replaces `rag.retrieve-k` and `rag.return-n` unless they are given
 * too. Unknown keys and bad values are a `ConfigurationError` naming the key.
 */
export function overrideRagConfig(base: Readonly<RagConfig>, overrides: FlatRagConfig): RagConfig {
  const merged: FlatRagConfig = flatRagConfig(base);
  if (overrides["rag.top-k"] !== undefined) {
    delete merged["rag.retrieve-k"];
    delete merged["rag.return-n"];
  }
  return resolveRagConfig({ ...merged, ...overrides });
}

export { ragConfigKeys };
