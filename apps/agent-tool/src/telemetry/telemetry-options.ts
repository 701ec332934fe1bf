import { parseOptions } from "@lookup-knowledge/core";
import { z } from "zod";
import type { TelemetryMeter } from "./telemetry-meter.js";
import type { TelemetryTracer } from "./telemetry-tracer.js";

/** The `telemetry` option of `createKnowledgeRetriever`: how lookups are traced with OpenTelemetry. */
export interface KnowledgeRetrieverTelemetryOptions {
  /**
   * Puts the query (`gen_ai.retrieval.query.text`) and each evidence block's content (in
   * `gen_ai.retrieval.documents`) on the span. Off by default: both can hold personal data.
   */
  includeContent?: boolean;
  /**
   * `gen_ai.data_source.id`: which knowledge base this is. Default: the store's name when
   * `openKnowledgeBase` or `openLocalKnowledgeBase` opened it (the data folder's name, the
   * Pinecone index, the libSQL database), else the tool's name.
   */
  dataSourceId?: string;
  /** The tracer to use instead of the global one (`trace.getTracer` of `@opentelemetry/api`). */
  tracer?: TelemetryTracer;
  /** The meter to use instead of the global one (`metrics.getMeter` of `@opentelemetry/api`). */
  meter?: TelemetryMeter;
}

/** The telemetry options, checked. */
export interface TelemetrySettings {
  includeContent: boolean;
  dataSourceId: string | undefined;
  tracer: TelemetryTracer | undefined;
  meter: TelemetryMeter | undefined;
}

// Built on first use, not at import (issue 36 item 5).
let telemetrySchema: ReturnType<typeof buildTelemetrySchema> | undefined;

function buildTelemetrySchema() {
  const tracerSchema = z.custom<TelemetryTracer>(
    (value) =>
      typeof value === "object" && value !== null && typeof (value as { startActiveSpan?: unknown }).startActiveSpan === "function",
    { error: "expected an OpenTelemetry Tracer (an object with startActiveSpan)" },
  );

  const meterSchema = z.custom<TelemetryMeter>(
    (value) =>
      typeof value === "object" &&
      value !== null &&
      typeof (value as { createHistogram?: unknown }).createHistogram === "function" &&
      typeof (value as { createCounter?: unknown }).createCounter === "function",
    { error: "expected an OpenTelemetry Meter (an object with createHistogram and createCounter)" },
  );

  return z.strictObject(
    {
      includeContent: z.boolean({ error: "expected true or false" }).optional(),
      dataSourceId: z
        .string({ error: "expected a non-empty string" })
        .refine((value) => value.trim() !== "", { error: "expected a non-empty string" })
        .optional(),
      tracer: tracerSchema.optional(),
      meter: meterSchema.optional(),
    },
    { error: "expected { includeContent?, dataSourceId?, tracer?, meter? }" },
  );
}

/**
 * Checks the `telemetry` option; a bad value is a `ConfigurationError` naming its key.
 * `defaultDataSourceId` is used when the option names none.
 */
export function parseTelemetryOptions(input: unknown, defaultDataSourceId?: string): TelemetrySettings {
  telemetrySchema ??= buildTelemetrySchema();
  const parsed = parseOptions(telemetrySchema, input ?? {}, "telemetry");
  return {
    includeContent: parsed.includeContent ?? false,
    dataSourceId: parsed.dataSourceId?.trim() ?? defaultDataSourceId,
    tracer: parsed.tracer,
    meter: parsed.meter,
  };
}
