import type { TelemetryAttributes } from "./telemetry-tracer.js";

/**
 * The part of an OpenTelemetry `Meter` the retriever uses, spelled out so the package's types
 * do not need `@opentelemetry/api`: a `Meter` from `metrics.getMeter(...)` is one.
 */
export interface TelemetryMeter {
  createHistogram(
    name: string,
    options: { description: string; unit: string; advice?: { explicitBucketBoundaries: number[] } },
  ): { record(value: number, attributes?: TelemetryAttributes): void };
  createCounter(
    name: string,
    options: { description: string; unit: string },
  ): { add(value: number, attributes?: TelemetryAttributes): void };
}
