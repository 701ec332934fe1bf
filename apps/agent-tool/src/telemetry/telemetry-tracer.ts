/**
 * The part of an OpenTelemetry `Tracer` the retriever uses, spelled out here so the package's
 * types do not need `@opentelemetry/api` installed: a `Tracer` from `@opentelemetry/api` (or
 * `trace.getTracer(...)`) is one.
 */
export interface TelemetryTracer {
  startActiveSpan<F extends (span: TelemetrySpan) => unknown>(name: string, options: TelemetrySpanOptions, fn: F): ReturnType<F>;
}

/** An attribute value as OpenTelemetry accepts it. */
export type TelemetryAttributeValue = string | number | boolean | string[] | number[] | boolean[];

export type TelemetryAttributes = Record<string, TelemetryAttributeValue>;

export interface TelemetrySpanOptions {
  /** `SpanKind.INTERNAL`. */
  kind: typeof spanKindInternal;
  attributes: TelemetryAttributes;
}

/** The part of an OpenTelemetry `Span` the retriever uses. */
export interface TelemetrySpan {
  isRecording(): boolean;
  setAttributes(attributes: TelemetryAttributes): unknown;
  setStatus(status: { code: typeof spanStatusError; message?: string }): unknown;
  recordException(exception: { name: string; message: string; code?: string }): void;
  end(): void;
}

/** `SpanKind.INTERNAL` of `@opentelemetry/api` (a stable value of its API). */
export const spanKindInternal = 0;

/** `SpanStatusCode.ERROR` of `@opentelemetry/api` (a stable value of its API). */
export const spanStatusError = 2;
