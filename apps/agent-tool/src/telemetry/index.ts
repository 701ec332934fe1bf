// `@lookup-knowledge/agent-tool/telemetry`: the lazy loader of the optional peer
// `@opentelemetry/api` and the structural types the retriever's telemetry is written against,
// for the packages above that trace with the same API copy (the MCP server's tool-call spans).
export { createOpenTelemetryLoader, openTelemetry } from "./load-open-telemetry.js";
export type { OpenTelemetryApi, OpenTelemetryLoader } from "./load-open-telemetry.js";
export { globalMeterInstruments } from "./global-meter-instruments.js";
export { errorType } from "./lookup-span-attributes.js";
export { spanKindInternal, spanKindServer, spanStatusError } from "./telemetry-tracer.js";
export type {
  TelemetryAttributes,
  TelemetryAttributeValue,
  TelemetrySpan,
  TelemetrySpanContext,
  TelemetrySpanOptions,
  TelemetryTracer,
} from "./telemetry-tracer.js";
export type { TelemetryMeter } from "./telemetry-meter.js";
export { storeDataSourceId } from "./store-data-source-id.js";
