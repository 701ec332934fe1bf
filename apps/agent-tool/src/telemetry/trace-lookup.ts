import type { LookupResult, RagConfig } from "@lookup-knowledge/core";
import { describeException, errorAttributes, lookupSpanName, resultAttributes, startAttributes } from "./lookup-span-attributes.js";
import { openTelemetry, type OpenTelemetryLoader } from "./load-open-telemetry.js";
import type { TelemetrySettings } from "./telemetry-options.js";
import { spanKindInternal, spanStatusError, type TelemetrySpan, type TelemetryTracer } from "./telemetry-tracer.js";

type Lookup<Options> = (query: string, options?: Options) => Promise<LookupResult>;

/** The instrumentation scope of the spans. */
export const tracerName = "@lookup-knowledge/agent-tool";

/**
 * Wraps `lookup` so each call is one span (see `lookup-span-attributes.ts`) when a tracer is
 * there: the `tracer` option, else the global one of `@opentelemetry/api` once that optional
 * peer has been imported. Without either, the call goes straight to `lookup`. A span that is
 * not recording (no tracer provider registered) gets no attributes built.
 */
export function traceLookups<Options extends { filter?: unknown }>(
  settings: TelemetrySettings,
  config: Readonly<RagConfig>,
  lookup: Lookup<Options>,
  loader: OpenTelemetryLoader = openTelemetry,
): Lookup<Options> {
  const { tracer: explicitTracer, includeContent, dataSourceId } = settings;
  const spanName = lookupSpanName();
  if (!explicitTracer) void loader.load();

  function traced(tracer: TelemetryTracer, query: string, options: Options | undefined): Promise<LookupResult> {
    const attributes = startAttributes(config, dataSourceId, options?.filter);
    return tracer.startActiveSpan(spanName, { kind: spanKindInternal, attributes }, (span: TelemetrySpan) =>
      runInSpan(span, () => lookup(query, options), query, includeContent),
    );
  }

  return (query, options) => {
    if (explicitTracer) return traced(explicitTracer, query, options);
    const api = loader.loaded();
    if (api) return traced(api.trace.getTracer(tracerName), query, options);
    if (loader.settled()) return lookup(query, options);
    // The first lookups may come before the import settled: they wait for it, once.
    return loader.load().then((loaded) => (loaded ? traced(loaded.trace.getTracer(tracerName), query, options) : lookup(query, options)));
  };
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
