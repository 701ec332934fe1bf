// Where `@opentelemetry/api` 1.x keeps what an SDK registers (its tracer, meter and logger
// providers, context manager and propagator): one object on the global object, under a
// symbol named after the API's major version, made on the first registration.
const registry = Symbol.for("opentelemetry.js.api.1");

/**
 * Whether anything registered an OpenTelemetry global in this process, read without loading
 * the API. Until then the API would only hand out no-op tracers and meters, so the retriever
 * need not import it (issue 36: a one-query process loads no telemetry it does not use).
 */
export function openTelemetryRegistered(): boolean {
  const registered = (globalThis as Record<symbol, unknown>)[registry];
  return typeof registered === "object" && registered !== null;
}
