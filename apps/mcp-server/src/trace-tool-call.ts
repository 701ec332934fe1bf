import {
  errorType,
  globalMeterInstruments,
  openTelemetry,
  spanKindServer,
  spanStatusError,
  type OpenTelemetryApi,
  type OpenTelemetryLoader,
  type TelemetryAttributes,
  type TelemetryMeter,
  type TelemetrySpan,
} from "@lookup-knowledge/agent-tool/telemetry";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

// The server span of each `tools/call`, by the MCP semantic conventions
// (open-telemetry/semantic-conventions-genai v0.1.0, mcp.md, status Development):
// - name `tools/call {gen_ai.tool.name}` (`tools/call` alone for a tool this server lacks: the
//   caller's name is not a low-cardinality target), kind SERVER;
// - `mcp.method.name` "tools/call", `gen_ai.operation.name` "execute_tool", `gen_ai.tool.name`,
//   `jsonrpc.request.id`, `mcp.session.id` when the transport has sessions;
// - parent: the context the caller injected into `params._meta` (W3C `traceparent`,
//   `tracestate`, `baggage`, read by the configured propagator), linked to the ambient context
//   when there is one; without `_meta` context the ambient context is the parent;
// - a tool result with `isError` is `error.type` "tool_error" and status ERROR; a JSON-RPC error
//   is `error.type` and `rpc.response.status_code` set to its code, status ERROR with its message.
// The lookup's `retrieval` span is started inside this span's context, so it is its child.
// Each call is also one `mcp.server.operation.duration` measurement (histogram, seconds, the
// conventions' buckets) with the span's low-cardinality attributes: `mcp.method.name`,
// `gen_ai.operation.name`, `gen_ai.tool.name`, `error.type`, `rpc.response.status_code`.

/** The instrumentation scope of the spans. */
export const toolCallTracerName = "@lookup-knowledge/mcp-server";

/** The parts of a `tools/call` request and its handler's `extra` the span reads. */
export interface ToolCallRequest {
  params: { name: string; _meta?: Record<string, unknown> | undefined };
}
export interface ToolCallExtra {
  requestId: string | number;
  sessionId?: string | undefined;
}

export type TraceToolCall = (request: ToolCallRequest, extra: ToolCallExtra, run: () => Promise<CallToolResult>) => Promise<CallToolResult>;

/** The W3C propagation keys read from `params._meta`, unprefixed as SEP-414 has them. */
const propagationKeys = ["traceparent", "tracestate", "baggage"] as const;
/** Longer values are not propagation headers (tracestate allows 32 members of 256 characters). */
const maxPropagationChars = 8192;

/**
 * Wraps each `tools/call` in its server span when `@opentelemetry/api` is installed (the same
 * lazy import as the retriever's); without it the call runs as it is. `toolNames` are this
 * server's tools: only those name a span.
 */
export function createToolCallTracer(toolNames: readonly string[], loader: OpenTelemetryLoader = openTelemetry): TraceToolCall {
  void loader.load();
  const known = new Set(toolNames);
  // Made again when the global meter provider changes; none (nothing measured) without one.
  const durationOf = globalMeterInstruments(toolCallTracerName, operationDuration);
  return (request, extra, run) => {
    const api = loader.loaded();
    if (api) return traced(api, durationOf(api), known, request, extra, run);
    if (loader.settled()) return run();
    return loader.load().then((loaded) => (loaded ? traced(loaded, durationOf(loaded), known, request, extra, run) : run()));
  };
}

type OperationDuration = ReturnType<TelemetryMeter["createHistogram"]>;

/** The conventions' `mcp.server.operation.duration`. */
function operationDuration(meter: TelemetryMeter): OperationDuration {
  return meter.createHistogram("mcp.server.operation.duration", {
    description: "Duration of an MCP request handled by the server.",
    unit: "s",
    advice: { explicitBucketBoundaries: [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] },
  });
}

function traced(
  api: OpenTelemetryApi,
  duration: OperationDuration | undefined,
  known: ReadonlySet<string>,
  request: ToolCallRequest,
  extra: ToolCallExtra,
  run: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const name = request.params.name;
  const toolName = known.has(name) ? name : undefined;
  const ambient = api.context.active();
  const carrier = propagationCarrier(request.params._meta);
  const parent = carrier ? api.propagation.extract(api.ROOT_CONTEXT, carrier) : ambient;
  const ambientSpan = carrier ? api.trace.getSpanContext(ambient) : undefined;
  const metricAttributes: TelemetryAttributes = {
    "mcp.method.name": "tools/call",
    "gen_ai.operation.name": "execute_tool",
    ...(toolName ? { "gen_ai.tool.name": toolName } : {}),
  };
  const attributes: TelemetryAttributes = {
    ...metricAttributes,
    "jsonrpc.request.id": String(extra.requestId),
    ...(extra.sessionId ? { "mcp.session.id": extra.sessionId } : {}),
  };
  const tracer = api.trace.getTracer(toolCallTracerName);
  const span = tracer.startSpan?.(
    toolName ? `tools/call ${toolName}` : "tools/call",
    { kind: spanKindServer, attributes, ...(ambientSpan ? { links: [{ context: ambientSpan }] } : {}) },
    parent,
  );
  if (!span) return run();
  const measure = (outcome: TelemetryAttributes, started: number) =>
    duration?.record((performance.now() - started) / 1000, { ...metricAttributes, ...outcome });
  return api.context.with(api.trace.setSpan(parent, span), () => endWithResult(span, run, measure));
}

async function endWithResult(
  span: TelemetrySpan,
  run: () => Promise<CallToolResult>,
  measure: (outcome: TelemetryAttributes, started: number) => void,
): Promise<CallToolResult> {
  const started = performance.now();
  let outcome: TelemetryAttributes = {};
  try {
    const result = await run();
    if (result.isError === true) {
      outcome = { "error.type": "tool_error" };
      span.setAttributes(outcome);
      span.setStatus({ code: spanStatusError });
    }
    return result;
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    const type = typeof code === "number" ? String(code) : errorType(error);
    outcome = { "error.type": type, ...(typeof code === "number" ? { "rpc.response.status_code": type } : {}) };
    span.setAttributes(outcome);
    span.setStatus({ code: spanStatusError, message: error instanceof Error ? error.message : String(error) });
    throw error;
  } finally {
    span.end();
    measure(outcome, started);
  }
}

/** The W3C keys of `_meta` as a carrier, or `undefined` when the caller sent no `traceparent`. */
function propagationCarrier(meta: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (typeof meta?.["traceparent"] !== "string") return undefined;
  const carrier: Record<string, string> = {};
  for (const key of propagationKeys) {
    const value = meta[key];
    if (typeof value === "string" && value.length <= maxPropagationChars) carrier[key] = value;
  }
  return carrier["traceparent"] === undefined ? undefined : carrier;
}
