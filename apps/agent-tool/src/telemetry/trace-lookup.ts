import type { LookupResult, RagConfig } from "@lookup-knowledge/core";
import { describeException, errorAttributes, lookupSpanName, resultAttributes, startAttributes } from "./lookup-span-attributes.js";
import { globalMeterInstruments } from "./global-meter-instruments.js";
import { createLookupMetrics, type LookupMetrics } from "./lookup-metrics.js";
import { createLookupStageSpans, type LookupStageSpans } from "./lookup-stage-spans.js";
import { openTelemetry, type OpenTelemetryApi, type OpenTelemetryLoader } from "./load-open-telemetry.js";
import type { TelemetrySettings } from "./telemetry-options.js";
import { spanKindInternal, spanStatusError, type TelemetrySpan } from "./telemetry-tracer.js";

/** The retriever's own lookup: `spans` is given only while the lookup's span records. */
export type StagedLookup<Options> = (query: string, options: Options | undefined, spans?: LookupStageSpans) => Promise<LookupResult>;

type Lookup<Options> = (query: string, options?: Options) => Promise<LookupResult>;

/** The instrumentation scope of the spans and metrics. */
export const tracerName = "@lookup-knowledge/agent-tool";

/**
 * Wraps `lookup` so each call is one span (see `lookup-span-attributes.ts`) with a child span
 * per stage, and one measurement of `lookup-metrics.ts`, when OpenTelemetry is there: the
 * `tracer` and `meter` options, else the global ones of `@opentelemetry/api` once that optional
 * peer has been imported. Without either, the call goes straight to `lookup`. A span that is
 * not recording (no tracer provider registered) gets no attributes and no stage spans.
 */
export function traceLookups<Options extends { filter?: unknown }>(
  settings: TelemetrySettings,
  config: Readonly<RagConfig>,
  lookup: StagedLookup<Options>,
  loader: OpenTelemetryLoader = openTelemetry,
): Lookup<Options> {
  const { tracer: explicitTracer, meter: explicitMeter, includeContent, dataSourceId } = settings;
  const spanName = lookupSpanName();
  const needsApi = !explicitTracer || !explicitMeter;
  // The API is imported only once it can matter: `wanted` (the process-wide loader's) says
  // whether anything registered an OpenTelemetry global; until then a lookup goes without it.
  // A `telemetry.tracer` needs it whatever is registered: it parents the stage spans
  // explicitly (without a context manager they would each start a trace of their own).
  const wanted = (): boolean => needsApi && (explicitTracer !== undefined || (loader.wanted?.() ?? true));
  if (wanted()) void loader.load();
  const explicitMetrics = explicitMeter ? createLookupMetrics(explicitMeter, dataSourceId) : undefined;
  // Without a meter provider registered, a lookup is not measured at all.
  const globalMetrics = globalMeterInstruments(tracerName, (meter) => createLookupMetrics(meter, dataSourceId));

  function metricsOf(api: OpenTelemetryApi | undefined): LookupMetrics | undefined {
    if (explicitMetrics || !api) return explicitMetrics;
    return globalMetrics(api);
  }

  function run(query: string, options: Options | undefined): Promise<LookupResult> {
    const api = loader.loaded();
    const tracer = explicitTracer ?? api?.trace.getTracer(tracerName);
    const metrics = metricsOf(api);
    if (!tracer) return metrics ? measured(metrics, () => lookup(query, options)) : lookup(query, options);
    const attributes = startAttributes(config, dataSourceId, options?.filter);
    return tracer.startActiveSpan(spanName, { kind: spanKindInternal, attributes }, (span: TelemetrySpan) => {
      const spans = span.isRecording() ? createLookupStageSpans(tracer, api, span, includeContent) : undefined;
      const traced = () => runInSpan(span, () => lookup(query, options, spans), query, includeContent);
      return metrics ? measured(metrics, traced) : traced();
    });
  }

  return (query, options) => {
    if (!loader.settled() && wanted()) {
      // The first lookups may come before the import settled: they wait for it, once.
      return loader.load().then(() => run(query, options));
    }
    return run(query, options);
  };
}

async function measured(metrics: LookupMetrics, run: () => Promise<LookupResult>): Promise<LookupResult> {
  const started = performance.now();
  try {
    const result = await run();
    metrics.record((performance.now() - started) / 1000, result);
    return result;
  } catch (error) {
    metrics.record((performance.now() - started) / 1000, undefined, error);
    throw error;
  }
}

async function runInSpan(
  span: TelemetrySpan,
  run: () => Promise<LookupResult>,
  query: unknown,
  includeContent: boolean,
): Promise<LookupResult> {
  if (!span.isRecording()) {
    try {
      return await run();
    } finally {
      span.end();
    }
  }
  try {
    const result = await run();
    span.setAttributes(resultAttributes(result, includeContent));
    return result;
  } catch (error) {
    const exception = describeException(error, includeContent);
    span.setAttributes(errorAttributes(error, query, includeContent));
    span.recordException(exception);
    span.setStatus({ code: spanStatusError, message: exception.message });
    throw error;
  } finally {
    span.end();
  }
}
