import type { IncomingMessage } from "node:http";
import type { HostOriginGuard } from "@lookup-knowledge/agent-tool/http";
import { InspectorRequestError } from "./inspector-request-error.js";

/**
 * Applies the Host and Origin policy of lookup-knowledge's HTTP servers (`guard`, from
 * `createHostOriginGuard` in `@lookup-knowledge/agent-tool/http`, against DNS rebinding) to
 * one request: throws `host_not_allowed` (421) when the Host header is missing or names
 * another server, and `origin_not_allowed` (403) when a browser says the request comes from a
 * page of another origin. A refusal names what the client sent and at most the loopback names
 * (`guard.loopbackHosts`): never the bound address, this machine's addresses or its name,
 * which any client could otherwise learn by sending a wrong Host.
 */
export function checkRequestOrigin(request: IncomingMessage, guard: HostOriginGuard): void {
  const verdict = guard.check(request.headers);
  if (verdict.allowed) return;
  if (verdict.header === "host") {
    const names = guard.loopbackHosts;
    const use =
      names.length === 0
        ? "the address it was started on"
        : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}, or the address it was started on`;
    throw new InspectorRequestError({
      status: 421,
      code: "host_not_allowed",
      message: `The Host header ${JSON.stringify(verdict.value)} is not this inspector's address (use ${use}).`,
    });
  }
  throw new InspectorRequestError({
    status: 403,
    code: "origin_not_allowed",
    message: `Requests from pages of ${JSON.stringify(verdict.value)} are refused: only the inspector's own page may call its API.`,
  });
}
