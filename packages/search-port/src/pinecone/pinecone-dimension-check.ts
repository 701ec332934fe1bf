import { ConfigurationError } from "@lookup-knowledge/core";
import { z } from "zod";
import { callPinecone } from "./call-pinecone.js";
import { parsePineconeResponse } from "./parse-pinecone-response.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";

const statsResponseSchema = z.object({ dimension: z.number().int().nonnegative().nullish() });

/** Checks the embedder's dimension against the index's; resolves when they agree (or the index has none yet). */
export type PineconeDimensionCheck = (dimension: number, signal: AbortSignal | undefined) => Promise<void>;

/**
 * The writer's check of the embedder's dimension against the index (`describeIndexStats`),
 * made once: later calls share its outcome, and a failed check is tried again next time.
 */
export function createPineconeDimensionCheck(settings: PineconeSettings): PineconeDimensionCheck {
  const { index, policy } = settings;
  let checkedDimension: Promise<void> | undefined;
  return (dimension, signal) => {
    checkedDimension ??= (async () => {
      const stats = parsePineconeResponse(
        statsResponseSchema,
        await callPinecone("describeIndexStats", () => index.describeIndexStats(), policy, signal),
        "describeIndexStats",
      );
      const expected = stats.dimension ?? 0;
      if (expected > 0 && expected !== dimension) {
        throw new ConfigurationError({
          key: "embeddings",
          value: dimension,
          reason: `the embeddings give ${dimension} dimensions but the index has ${expected}`,
        });
      }
    })();
    const check = checkedDimension;
    check.catch(() => {
      if (checkedDimension === check) checkedDimension = undefined;
    });
    return check;
  };
}
