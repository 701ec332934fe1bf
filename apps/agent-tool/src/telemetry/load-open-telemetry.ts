import type { TelemetryTracer } from "./telemetry-tracer.js";

/** What the retriever needs of `@opentelemetry/api`: the global tracer provider. */
export interface OpenTelemetryApi {
  trace: { getTracer(name: string, version?: string): TelemetryTracer };
}

/** Loads the API once; `loaded()` answers synchronously once the import has settled. */
export interface OpenTelemetryLoader {
  /** The import, started on the first call; `undefined` when the package cannot be imported. */
  load(): Promise<OpenTelemetryApi | undefined>;
  /** The API once imported, `undefined` before or when it failed. */
  loaded(): OpenTelemetryApi | undefined;
  /** Whether the import has settled (either way). */
  settled(): boolean;
}

/**
 * A loader over `importModule`. A failed import (the optional peer is not installed) is not an
 * error: the loader answers `undefined` from then on and tracing stays off.
 */
export function createOpenTelemetryLoader(importModule: () => Promise<unknown>): OpenTelemetryLoader {
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
  };
}

function asOpenTelemetryApi(module: unknown): OpenTelemetryApi | undefined {
  const trace = (module as { trace?: { getTracer?: unknown } } | null)?.trace;
  return typeof trace?.getTracer === "function" ? (module as OpenTelemetryApi) : undefined;
}

/**
 * The process-wide loader of the optional peer `@opentelemetry/api`: a dynamic import, so the
 * package neither needs it installed nor loads it before a retriever asks for it.
 */
export const openTelemetry: OpenTelemetryLoader = createOpenTelemetryLoader(() => import("@opentelemetry/api"));
