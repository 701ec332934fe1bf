import { ConfigurationError } from "./errors.js";
import { booleanSetting, numberSetting, type SettingCheck, wholeNumberSetting } from "./rag-setting-checks.js";

/** The resolved settings of a retriever. Every field has a value. */
export interface RagConfig {
  /** Width asked of the port (`rag.retrieve-k`, R17). */
  retrieveK: number;
  /** Most evidence blocks returned after post-processing (`rag.return-n`, R17). */
  returnN: number;
  /** Most blocks per document (`rag.max-chunks-per-document`, R16). */
  maxChunksPerDocument: number;
  /** Normalised similarity (0..1) a filtered attempt's top hit must reach to be usable (R9, R10). */
  referenceThreshold: number;
  /** Characters of evidence content the context pack may hold (R25). */
  contextBudget: number;
  /** When false, L1 never runs and every lookup is `no_evidence` (R5). */
  l1Enabled: boolean;
  /** Time limit of one port call, in milliseconds. */
  l1TimeoutMs: number;
  /** Longest normalised query, in characters; longer queries are cut at a word boundary (R3). */
  maxQueryLength: number;
  /** Whether query transformation may append entity terms of matched L0 entries (R3). */
  queryExpansion: boolean;
}

/** A typed configuration object; `topK` is the legacy fallback of `retrieveK` and `returnN`. */
export type RagConfigInput = Partial<RagConfig> & { topK?: number };

/** Flat dotted keys as a config file or environment gives them: `{ "rag.return-n": "5" }`. */
export type FlatRagConfig = Record<string, string | number | boolean>;

type SettingName = keyof RagConfig | "topK";

interface Setting {
  name: SettingName;
  key: string;
  check: SettingCheck;
}

const settings: Setting[] = [
  { name: "retrieveK", key: "rag.retrieve-k", check: wholeNumberSetting(1, 1000) },
  { name: "returnN", key: "rag.return-n", check: wholeNumberSetting(1, 200) },
  { name: "topK", key: "rag.top-k", check: wholeNumberSetting(1, 1000) },
  { name: "maxChunksPerDocument", key: "rag.max-chunks-per-document", check: wholeNumberSetting(1, 100) },
  { name: "referenceThreshold", key: "rag.reference-threshold", check: numberSetting(0, 1) },
  { name: "contextBudget", key: "rag.context-budget", check: wholeNumberSetting(100, 1_000_000) },
  { name: "l1Enabled", key: "rag.l1-enabled", check: booleanSetting },
  { name: "l1TimeoutMs", key: "rag.l1-timeout-ms", check: wholeNumberSetting(1, 600_000) },
  { name: "maxQueryLength", key: "rag.max-query-length", check: wholeNumberSetting(16, 100_000) },
  { name: "queryExpansion", key: "rag.query-expansion", check: booleanSetting },
];

const byName = new Map(settings.map((setting) => [setting.name as string, setting]));
const byKey = new Map(settings.map((setting) => [setting.key, setting]));

/** The defaults, with the keys they are set by. */
export const defaultRagConfig: Readonly<RagConfig> = Object.freeze({
  retrieveK: 20,
  returnN: 5,
  maxChunksPerDocument: 2,
  referenceThreshold: 0.35,
  contextBudget: 6000,
  l1Enabled: true,
  l1TimeoutMs: 10_000,
  maxQueryLength: 1000,
  queryExpansion: false,
});

/** The flat key of a typed setting, e.g. `returnN` -> `rag.return-n`. */
export function ragConfigKey(name: SettingName): string {
  const setting = byName.get(name);
  if (!setting) throw new ConfigurationError({ key: String(name), value: name, reason: "not a rag.* setting" });
  return setting.key;
}

/**
 * Resolves a typed object, flat `rag.*` keys, or a mix of both into a complete `RagConfig`.
 * Unknown keys, bad values and the same setting given twice with different values are
 * refused with a `ConfigurationError` naming the key. `rag.top-k` fills `retrieveK` and
 * `returnN` only where they are absent.
 */
export function resolveRagConfig(input: RagConfigInput | FlatRagConfig | undefined = {}): RagConfig {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new ConfigurationError({ key: "rag", value: input, reason: "configuration must be an object" });
  }
  const given = new Map<SettingName, { key: string; value: number | boolean }>();
  for (const [name, raw] of Object.entries(input)) {
    if (raw === undefined) continue;
    const setting = byKey.get(name) ?? byName.get(name);
    if (!setting) {
      throw new ConfigurationError({
        key: name,
        value: raw,
        reason: `unknown setting; known keys are ${settings.map((s) => s.key).join(", ")}`,
      });
    }
    const parsed = setting.check(typeof raw === "string" ? raw.trim() : raw);
    if (!parsed.ok) throw new ConfigurationError({ key: setting.key, value: raw, reason: parsed.reason });
    const earlier = given.get(setting.name);
    if (earlier && earlier.value !== parsed.value) {
      throw new ConfigurationError({
        key: setting.key,
        value: raw,
        reason: `given twice with different values (${earlier.key}=${String(earlier.value)})`,
      });
    }
    given.set(setting.name, { key: name, value: parsed.value });
  }
  const value = <T extends number | boolean>(name: SettingName): T | undefined => given.get(name)?.value as T | undefined;
  const topK = value<number>("topK");
  const retrieveK = value<number>("retrieveK") ?? topK ?? defaultRagConfig.retrieveK;
  const explicitReturnN = value<number>("returnN") ?? topK;
  const returnN = explicitReturnN ?? Math.min(defaultRagConfig.returnN, retrieveK);
  if (returnN > retrieveK) {
    throw new ConfigurationError({
      key: "rag.return-n",
      value: returnN,
      reason: `cannot exceed rag.retrieve-k (${retrieveK}): the port is never asked for more`,
    });
  }
  return {
    retrieveK,
    returnN,
    maxChunksPerDocument: value<number>("maxChunksPerDocument") ?? defaultRagConfig.maxChunksPerDocument,
    referenceThreshold: value<number>("referenceThreshold") ?? defaultRagConfig.referenceThreshold,
    contextBudget: value<number>("contextBudget") ?? defaultRagConfig.contextBudget,
    l1Enabled: value<boolean>("l1Enabled") ?? defaultRagConfig.l1Enabled,
    l1TimeoutMs: value<number>("l1TimeoutMs") ?? defaultRagConfig.l1TimeoutMs,
    maxQueryLength: value<number>("maxQueryLength") ?? defaultRagConfig.maxQueryLength,
    queryExpansion: value<boolean>("queryExpansion") ?? defaultRagConfig.queryExpansion,
  };
}

/** Every known flat key, for documentation and CLI help. */
export const ragConfigKeys: readonly string[] = settings.map((setting) => setting.key);
