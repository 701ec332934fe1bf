import { parseOptions } from "@lookup-knowledge/core";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import type { z as Zod } from "zod";
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

// Built, and zod loaded, on first use (issue 36 item 5): no telemetry option, the common case,
// is read without it.
const telemetrySchema = schemaOnDemand(buildTelemetrySchema);

function buildTelemetrySchema(z: typeof Zod) {
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
  const given = input ?? {};
  const parsed = readPlainTelemetryOptions(given) ?? parseOptions(telemetrySchema(), given, "telemetry");
  return {
    includeContent: parsed.includeContent ?? false,
    dataSourceId: parsed.dataSourceId?.trim() ?? defaultDataSourceId,
    tracer: parsed.tracer,
    meter: parsed.meter,
  };
}

const telemetryKeys = new Set(["includeContent", "dataSourceId", "tracer", "meter"]);

const hasMethods = (value: unknown, names: readonly string[]): boolean =>
  typeof value === "object" && value !== null && names.every((name) => typeof (value as Record<string, unknown>)[name] === "function");

/** The options when plainly valid (the schema would read them as they are), else undefined: the schema reads them or says what is wrong. */
function readPlainTelemetryOptions(input: unknown): KnowledgeRetrieverTelemetryOptions | undefined {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return undefined;
  if (!Object.keys(input).every((key) => telemetryKeys.has(key))) return undefined;
  const { includeContent, dataSourceId, tracer, meter } = input as Record<string, unknown>;
  if (includeContent !== undefined && typeof includeContent !== "boolean") return undefined;
  if (dataSourceId !== undefined && (typeof dataSourceId !== "string" || dataSourceId.trim() === "")) return undefined;
  if (tracer !== undefined && !hasMethods(tracer, ["startActiveSpan"])) return undefined;
  if (meter !== undefined && !hasMethods(meter, ["createHistogram", "createCounter"])) return undefined;
  return input as KnowledgeRetrieverTelemetryOptions;
}
