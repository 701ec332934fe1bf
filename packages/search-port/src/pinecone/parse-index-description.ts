import { parseOptions } from "@lookup-knowledge/core";
import { z } from "zod";
import type { PineconeMetric } from "./normalize-pinecone-score.js";

/** What the adapter reads from `pc.describeIndex(name)`. */
export interface IndexFacts {
  metric: PineconeMetric;
  dimension?: number;
  vectorType?: string;
  /** The field integrated inference embeds (`embed.fieldMap.text`), when the index has one. */
  textField?: string;
}

const metricSchema = z.enum(["cosine", "dotproduct", "euclidean"]);

const descriptionSchema = z.object(
  {
    metric: metricSchema,
    dimension: z.number().int().positive().nullish(),
    vectorType: z.string().nullish(),
    embed: z
      .object({
        fieldMap: z.record(z.string(), z.unknown()).nullish(),
      })
      .nullish(),
  },
  { error: "expected the result of pc.describeIndex(name)" },
);

/**
 * Parses the output of `pc.describeIndex(name)`; refuses what it cannot use with a
 * `ConfigurationError` whose key is `name` and the path of the bad field.
 */
export function parseIndexDescription(description: unknown, name = "indexDescription"): IndexFacts {
  const { metric, dimension, vectorType, embed } = parseOptions(descriptionSchema, description, name);
  const textField = embed?.fieldMap?.["text"];
  return {
    metric,
    ...(dimension == null ? {} : { dimension }),
    ...(vectorType == null ? {} : { vectorType }),
    ...(typeof textField === "string" && textField !== "" ? { textField } : {}),
  };
}
