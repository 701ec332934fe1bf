import { openTelemetryRegistered } from "./open-telemetry-registered.js";
import type { TelemetryMeter } from "./telemetry-meter.js";
import type { TelemetrySpan, TelemetrySpanContext, TelemetryTracer } from "./telemetry-tracer.js";

/**
 * What the retriever and the MCP server need of `@opentelemetry/api`: the global tracer
 * provider, the active context (the parent of a lookup's stage spans), the global meter
 * provider and the global propagator (a caller's `traceparent`). Contexts and span contexts
 * stay opaque (`unknown`) here: only the API makes and reads them.
 */
export interface OpenTelemetryApi {
  trace: {
    getTracer(name: string, version?: string): TelemetryTracer;
    setSpan(context: unknown, span: TelemetrySpan): unknown;
    getSpanContext(context: unknown): TelemetrySpanContext | undefined;
  };
  context: {
    active(): unknown;
    with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
      context: unknown,
      fn: F,
      thisArg?: unknown,
      ...args: A
    ): ReturnType<F>;
  };
  metrics: { getMeterProvider(): unknown; getMeter(name: string, version?: string): TelemetryMeter };
  /** The API's no-op meter (one object): what `getMeter` gives while no meter provider is registered. */
  createNoopMeter?(): unknown;
  propagation: { extract(context: unknown, carrier: unknown, getter?: unknown): unknown };
  ROOT_CONTEXT: unknown;
}

/** Loads the API once; `loaded()` answers synchronously once the import has settled. */
export interface OpenTelemetryLoader {
  /** The import, started on the first call; `undefined` when the package cannot be imported. */
  load(): Promise<OpenTelemetryApi | undefined>;
  /** The API once imported, `undefined` before or when it failed. */
  loaded(): OpenTelemetryApi | undefined;
  /** Whether the import has settled (either way). */
  settled(): boolean;
  /**
   * Whether importing can change anything now. Absent means always. The process-wide loader
   * answers whether something registered an OpenTelemetry global (a tracer, meter or context
   * manager, as an SDK does at start): without one, every span and measurement would be a
   * no-op, so a process that never turned telemetry on never loads the package (issue 36).
   */
  wanted?(): boolean;
}

/**
 * A loader over `importModule`. A failed import (the optional peer is not installed) is not an
 * error: the loader answers `undefined` from then on and tracing stays off.
 */
export function createOpenTelemetryLoader(importModule: () => Promise<unknown>, wanted?: () => boolean): OpenTelemetryLoader {
  let loading: Promise<OpenTelemetryApi | undefined> | undefined;
  let api: OpenTelemetryApi | undefined;
  let done = false;
  return {
    load() {
      loading ??= importModule().then(
        (module) => {
          api = asOpenTelemetryApi(module);
          done = true;
          return api;
        },
        () => {
          done = true;
          return undefined;
        },
      );
      return loading;
    },
    loaded: () => api,
    settled: () => done,
    ...(wanted ? { wanted } : {}),
  };
}

/** The module when it is an `@opentelemetry/api` this code can use (1.3 or later: the metrics API). */
function asOpenTelemetryApi(module: unknown): OpenTelemetryApi | undefined {
  const api = module as Partial<Record<keyof OpenTelemetryApi, Record<string, unknown>>> | null;
  const usable =
    typeof api?.trace?.["getTracer"] === "function" &&
    typeof api.trace["setSpan"] === "function" &&
    typeof api.context?.["active"] === "function" &&
    typeof api.metrics?.["getMeter"] === "function" &&
    typeof api.propagation?.["extract"] === "function";
  return usable ? (module as OpenTelemetryApi) : undefined;
}

/**
 * The process-wide loader of the optional peer `@opentelemetry/api`: a dynamic import, so the
 * package neither needs it installed nor loads it before a retriever asks for it, and wanted
 * only once something registered an OpenTelemetry global (`openTelemetryRegistered`).
 */
export const openTelemetry: OpenTelemetryLoader = createOpenTelemetryLoader(() => import("@opentelemetry/api"), openTelemetryRegistered);
