import { ConfigurationError } from "@lookup-knowledge/core";
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

const descriptionSchema = z.object({
  metric: metricSchema,
  dimension: z.number().int().positive().nullish(),
  vectorType: z.string().nullish(),
  embed: z
    .object({
      fieldMap: z.record(z.string(), z.unknown()).nullish(),
    })
    .nullish(),
});

/** Parses the output of `pc.describeIndex(name)`; refuses what it cannot use with a `ConfigurationError`. */
export function parseIndexDescription(description: unknown): IndexFacts {
  const result = descriptionSchema.safeParse(description);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ConfigurationError({
      key: `indexDescription${issue && issue.path.length > 0 ? `.${issue.path.join(".")}` : ""}`,
      value: description,
      reason: `expected the result of pc.describeIndex(name): ${issue?.message ?? "unreadable"}`,
    });
  }
  const { metric, dimension, vectorType, embed } = result.data;
  const textField = embed?.fieldMap?.["text"];
  return {
    metric,
    ...(dimension == null ? {} : { dimension }),
    ...(vectorType == null ? {} : { vectorType }),
    ...(typeof textField === "string" && textField !== "" ? { textField } : {}),
  };
}

export function parseMetric(value: unknown): PineconeMetric {
  const result = metricSchema.safeParse(value);
  if (result.success) return result.data;
  throw new ConfigurationError({ key: "metric", value, reason: 'expected "cosine", "dotproduct" or "euclidean"' });
}
