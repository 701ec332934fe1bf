import { decodePathPart } from "./decode-path-part.js";
import { readOnlyPort } from "./read-only-port.js";
import type { IncomingMessage } from "node:http";
import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { runCalibration } from "./calibration-api.js";
import { InspectorRequestError } from "./inspector-request-error.js";
import { readInspectorInfo } from "./info-api.js";
import { comparePlaygroundLookups, runPlaygroundLookup } from "./playground-api.js";
import { readJsonBody } from "./read-json-body.js";
import { searchSources } from "./sources-api.js";
import type { LazyTraceReader } from "./lazy-trace-reader.js";
import { getTrace, listTraces, type TraceReader } from "./traces-api.js";
import { explainWhyNot } from "./why-not-api.js";
import { type GapsReader, type GapTerms, readGaps } from "./gaps-api.js";

/** What the endpoints work on. */
export interface ApiContext {
  knowledgeBase: KnowledgeBase;
  /** The recorded lookups, opened on the first request that finds a trace store. */
  traces: LazyTraceReader;
  queryIsHash: boolean;
  /** How the Gaps view splits and weighs query terms: the knowledge base's own analyzer, as `lookup-knowledge gaps` does. */
  gapTerms: () => GapTerms;
  storeDescription: string;
  redact: (text: string) => string;
}

/**
 * Answers one `/api/` request with the body to send as JSON; the README's "HTTP API" lists each
 * endpoint, and `InspectorApi` what each one answers.
 */
export async function routeApiRequest(context: ApiContext, request: IncomingMessage, url: URL): Promise<unknown> {
  const route = `${request.method} ${url.pathname}`;
  const { knowledgeBase } = context;
  switch (route) {
    case "GET /api/info":
      return readInspectorInfo(context);
    case "GET /api/traces":
      return listTraces(await requireTraces(context), url.searchParams, { queryIsHash: context.queryIsHash });
    case "GET /api/gaps":
      return readGaps(requireGaps(await requireTraces(context)), url.searchParams, {
        queryIsHash: context.queryIsHash,
        terms: context.gapTerms(),
      });
    case "GET /api/sources":
      return await searchSources(knowledgeBase, url.searchParams.get("q") ?? "");
    case "POST /api/lookup":
      return runPlaygroundLookup(knowledgeBase, await readJsonBody(request));
    case "POST /api/compare":
      return comparePlaygroundLookups(knowledgeBase, await readJsonBody(request));
    case "POST /api/why-not":
      return explainWhyNot(knowledgeBase, await readJsonBody(request));
    case "POST /api/calibration":
      return runCalibration(knowledgeBase, await readJsonBody(request));
  }
  const trace = /^\/api\/traces\/([^/]+)$/.exec(url.pathname);
  if (trace && request.method === "GET") {
    return getTrace(await requireTraces(context), decodePathPart(trace[1] ?? ""), {
      queryIsHash: context.queryIsHash,
      redact: context.redact,
      port: readOnlyPort(knowledgeBase.store.port),
    });
  }
  throw new InspectorRequestError({ status: 404, code: "not_found", message: `No endpoint ${route}.` });
}

async function requireTraces(context: ApiContext): Promise<TraceReader> {
  const traces = await context.traces.current();
  if (!traces) {
    throw new InspectorRequestError({
      status: 404,
      code: "traces_unavailable",
      message: "No lookups were recorded in this data folder yet (run `lookup-knowledge query` first).",
    });
  }
  return traces;
}

/** The trace store as a `GapsReader`: a store given to the inspector with only `list` and `get` cannot group lookups. */
function requireGaps(traces: TraceReader): GapsReader {
  const { knowledgeGaps } = traces;
  if (!knowledgeGaps) {
    throw new InspectorRequestError({
      status: 404,
      code: "gaps_unavailable",
      message: "This trace store cannot group lookups into gaps (it has no knowledgeGaps): serve the inspector over a durable trace store.",
    });
  }
  return { knowledgeGaps: (options) => knowledgeGaps.call(traces, options) };
}
