import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { createHostOriginGuard } from "@lookup-knowledge/agent-tool/http";
import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { checkRequestOrigin } from "./check-request-origin.js";
import { InspectorListenError } from "./inspector-listen-error.js";
import { InspectorRequestError } from "./inspector-request-error.js";
import { routeApiRequest } from "./route-api-request.js";
import { securityHeaders, serveStaticAsset } from "./serve-static-asset.js";
import { lazyTraceReader, type OpenTraceReader } from "./lazy-trace-reader.js";
import type { TraceReader } from "./traces-api.js";
import type { GapTerms } from "./gaps-api.js";
import { knowledgeBaseGapTerms } from "./knowledge-base-gap-terms.js";

export interface InspectorOptions {
  knowledgeBase: KnowledgeBase;
  /**
   * Where recorded lookups are read: a store (which the caller closes), or a function that
   * opens one on demand. The function is called again on each request until it yields a
   * store, which is then kept and closed by `close`, so a server started before the first
   * lookup shows the lookups recorded later. While there is none, the Traces view says so.
   */
  traces?: TraceReader | OpenTraceReader;
  /**
   * How the Gaps view splits and weighs query terms; give what `lookup-knowledge gaps` uses so
   * both show the same groups. Default: the knowledge base's own (`knowledgeBaseGapTerms`).
   */
  gapTerms?: GapTerms;
  /** How the trace store keeps queries: `hash` marks every stored query as a hash, never as text. */
  queryStorage?: "text" | "hash";
  /** What the page names the store by (say it without secrets: no password, no token). */
  storeDescription?: string;
  /** Applied to every error message the page is shown (e.g. to remove URLs' passwords). */
  redact?: (text: string) => string;
  /** The address to bind; default 127.0.0.1, this machine only. */
  host?: string;
  /** The port; default 4555, 0 picks a free one. */
  port?: number;
}

export interface InspectorServer {
  /** `http://host:port/`. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves the inspector page and its `/api/` endpoints over Node's `http` until `close`.
 * Every request must name this server in its Host header and, from a browser, come from a
 * page of this server (the Host and Origin policy of `createHostOriginGuard`, shared with the
 * MCP server); the API never writes to the index.
 */
export async function serveInspector(options: InspectorOptions): Promise<InspectorServer> {
  const host = options.host ?? "127.0.0.1";
  const wanted = options.port ?? 4555;
  // The port is known once listening (0 picks one): until then, the port asked for.
  let guard = createHostOriginGuard({ host, port: wanted });
  const context = {
    knowledgeBase: options.knowledgeBase,
    traces: lazyTraceReader(options.traces),
    queryIsHash: options.queryStorage === "hash",
    gapTerms: () => options.gapTerms ?? knowledgeBaseGapTerms(options.knowledgeBase),
    storeDescription: options.storeDescription ?? options.knowledgeBase.store.kind,
    redact: options.redact ?? ((text: string) => text),
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => answerError(response, error, context.redact));
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    checkRequestOrigin(request, guard);
    const url = new URL(request.url ?? "/", "http://inspector.invalid");
    if (url.pathname.startsWith("/api/")) {
      const body = await routeApiRequest(context, request, url);
      response.writeHead(200, { ...securityHeaders, "content-type": "application/json; charset=utf-8" });
      response.end(JSON.stringify(body));
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      throw new InspectorRequestError({
        status: 405,
        code: "method_not_allowed",
        message: `${request.method} is not allowed on ${url.pathname}.`,
      });
    }
    if (!(await serveStaticAsset(url.pathname, response))) {
      throw new InspectorRequestError({ status: 404, code: "not_found", message: `Nothing at ${url.pathname}.` });
    }
  }
  try {
    await new Promise<void>((resolve, reject) => {
      const failed = (error: NodeJS.ErrnoException) => reject(new InspectorListenError({ host, port: wanted, cause: error }));
      server.once("error", failed);
      server.listen(wanted, host, () => {
        server.off("error", failed);
        resolve();
      });
    });
  } catch (error) {
    await context.traces.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  guard = createHostOriginGuard({ host, port });
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/`,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await context.traces.close();
    },
  };
}

function answerError(response: ServerResponse, error: unknown, redact: (text: string) => string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const status = error instanceof InspectorRequestError ? error.status : 500;
  const code = LookupKnowledgeError.isInstance(error) ? error.code : "internal_error";
  const message = redact(error instanceof Error ? error.message : String(error));
  // A refused body may still be arriving: answer, then close the connection rather than read it.
  const close = status === 413 ? { connection: "close" } : {};
  response.writeHead(status, { ...securityHeaders, ...close, "content-type": "application/json; charset=utf-8" });
  response.end(JSON.stringify({ error: { code, message } }));
}
