/**
 * The part of an OpenTelemetry `Tracer` the retriever uses, spelled out here so the package's
 * types do not need `@opentelemetry/api` installed: a `Tracer` from `@opentelemetry/api` (or
 * `trace.getTracer(...)`) is one.
 */
export interface TelemetryTracer {
  startActiveSpan<F extends (span: TelemetrySpan) => unknown>(name: string, options: TelemetrySpanOptions, fn: F): ReturnType<F>;
  /**
   * Starts a span that is not made active: the spans of a lookup's stages. A tracer without it
   * (an object of your own with `startActiveSpan` only) gets the lookup's span and no stage spans.
   */
  startSpan?(name: string, options: TelemetrySpanOptions, context?: unknown): TelemetrySpan;
}

/** An attribute value as OpenTelemetry accepts it. */
export type TelemetryAttributeValue = string | number | boolean | string[] | number[] | boolean[];

export type TelemetryAttributes = Record<string, TelemetryAttributeValue>;

export interface TelemetrySpanOptions {
  /** `SpanKind.INTERNAL` or `SpanKind.SERVER`. */
  kind: typeof spanKindInternal | typeof spanKindServer;
  attributes: TelemetryAttributes;
  /** Spans this one is linked to (the MCP server's ambient context). */
  links?: Array<{ context: TelemetrySpanContext }>;
}

/** The part of an OpenTelemetry `SpanContext` a link needs. */
export interface TelemetrySpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
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

/** `SpanKind.SERVER` of `@opentelemetry/api` (a stable value of its API). */
export const spanKindServer = 1;

/** `SpanStatusCode.ERROR` of `@opentelemetry/api` (a stable value of its API). */
export const spanStatusError = 2;
