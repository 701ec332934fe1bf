import type { LookupResult } from "@lookup-knowledge/core";
import { attributeNames, errorType, operationName } from "./lookup-span-attributes.js";
import type { TelemetryMeter } from "./telemetry-meter.js";
import type { TelemetryAttributes } from "./telemetry-tracer.js";

// Two instruments per retriever, through the OpenTelemetry metrics API:
// - `gen_ai.retrieval.duration` (histogram, seconds): the retrieval metric of the GenAI
//   conventions (semantic-conventions-genai v0.1.0, retrieval.md), with `gen_ai.operation.name`,
//   `gen_ai.data_source.id` and, for a lookup that threw, `error.type`. Its bucket boundaries
//   are the conventions' operation-duration ones (0.01 s to 81.92 s) with three below them
//   (1, 2.5 and 5 ms): a lookup over the embedded index takes milliseconds;
// - `lookup_knowledge.lookups` (counter, `{lookup}`): every lookup, by
//   `lookup_knowledge.outcome`: `found` (evidence returned), `refused` (no evidence) or
//   `error` (the lookup threw), with the same data source.

export const metricNames = {
  duration: "gen_ai.retrieval.duration",
  lookups: "lookup_knowledge.lookups",
} as const;

export const outcomeAttribute = "lookup_knowledge.outcome";

/** The histogram's bucket boundaries, in seconds. */
export const durationBoundaries = [
  0.001, 0.0025, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
];

export type LookupOutcome = "found" | "refused" | "error";

/** Records one lookup's duration and outcome. */
export interface LookupMetrics {
  record(durationSeconds: number, result: LookupResult | undefined, error?: unknown): void;
}

/** The instruments of one retriever on `meter`. */
export function createLookupMetrics(meter: TelemetryMeter, dataSourceId: string | undefined): LookupMetrics {
  const duration = meter.createHistogram(metricNames.duration, {
    description: "Duration of a lookup_knowledge retrieval: hints, retrieval attempts, rerank and packing.",
    unit: "s",
    advice: { explicitBucketBoundaries: durationBoundaries },
  });
  const lookups = meter.createCounter(metricNames.lookups, {
    description: "Lookups by outcome: found (evidence returned), refused (no evidence) or error (the lookup threw).",
    unit: "{lookup}",
  });
  const base: TelemetryAttributes = {
    [attributeNames.operationName]: operationName,
    ...(dataSourceId ? { [attributeNames.dataSourceId]: dataSourceId } : {}),
  };
  const outcomes: Record<LookupOutcome, TelemetryAttributes> = {
    found: { ...base, [outcomeAttribute]: "found" },
    refused: { ...base, [outcomeAttribute]: "refused" },
    error: { ...base, [outcomeAttribute]: "error" },
  };
  return {
    record(durationSeconds, result, error) {
      if (result === undefined) {
        const failed = { ...base, [attributeNames.errorType]: errorType(error) };
        duration.record(durationSeconds, failed);
        lookups.add(1, { ...outcomes.error, [attributeNames.errorType]: failed[attributeNames.errorType] as string });
        return;
      }
      duration.record(durationSeconds, base);
      lookups.add(1, result.found ? outcomes.found : outcomes.refused);
    },
  };
}
