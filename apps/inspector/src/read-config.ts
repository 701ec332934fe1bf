import type { FlatRagConfig, RagConfig } from "@lookup-knowledge/core";
import { asBadRequest } from "./as-bad-request.js";
import { InspectorRequestError } from "./inspector-request-error.js";
import { overrideRagConfig } from "./override-rag-config.js";

/**
 * A request's `config` (flat `rag.*` keys, values as numbers, booleans or their text; an
 * empty value keeps the base's) applied to `base`: what the playground, why-not and
 * calibration run with. A bad shape, an unknown key or a bad value is a 400 naming it.
 */
export function readConfig(base: Readonly<RagConfig>, value: unknown): RagConfig {
  if (value === undefined || value === null) return { ...base };
  if (typeof value !== "object" || Array.isArray(value)) throw invalid('config must be an object of rag.* keys, e.g. {"rag.return-n": 3}.');
  const overrides: FlatRagConfig = {};
  for (const [key, raw] of Object.entries(value)) {
    if (raw === "" || raw === null || raw === undefined) continue;
    if (typeof raw !== "string" && typeof raw !== "number" && typeof raw !== "boolean") {
      throw invalid(`config ${key}: expected a number, true or false.`);
    }
    overrides[key] = raw;
  }
  try {
    return overrideRagConfig(base, overrides);
  } catch (error) {
    throw asBadRequest(error);
  }
}

function invalid(message: string): InspectorRequestError {
  return new InspectorRequestError({ status: 400, code: "invalid_request", message });
}
