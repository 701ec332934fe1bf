import type { IncomingMessage } from "node:http";
import { createHostOriginGuard } from "@lookup-knowledge/agent-tool/http";
import { describe, expect, it } from "vitest";
import { checkRequestOrigin } from "./check-request-origin.js";

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const refusal = (headers: Record<string, string>, guard = createHostOriginGuard({ host: "127.0.0.1", port: 4555 })) => {
  try {
    checkRequestOrigin(request(headers), guard);
    return undefined;
  } catch (error) {
    const { status, code, message } = error as { status: number; code: string; message: string };
    return { status, code, message };
  }
};

describe("issue 13: the inspector's Host and Origin check", () => {
  it("issue 34: a Host the shared policy refuses is 421 host_not_allowed, naming the Host and only the loopback names", () => {
    expect(refusal({ host: "attacker.example:4555" })).toEqual({
      status: 421,
      code: "host_not_allowed",
      message:
        'The Host header "attacker.example:4555" is not this inspector\'s address (use localhost:4555, 127.0.0.1:4555 or [::1]:4555, or the address it was started on).',
    });
    expect(refusal({})?.message).toMatch(/^The Host header "" is not/);
    expect(refusal({ host: "127.0.0.1:4556" })?.code).toBe("host_not_allowed");
    const wildcard = createHostOriginGuard({ host: "0.0.0.0", port: 4555, interfaceAddresses: ["10.0.0.5", "fd00::7"] });
    expect(refusal({ host: "10.0.0.5:4555" }, wildcard)).toBeUndefined();
    // On a wildcard bind the message names neither this machine's addresses nor its name.
    expect(refusal({ host: "attacker.example:4555" }, wildcard)).toEqual({
      status: 421,
      code: "host_not_allowed",
      message:
        'The Host header "attacker.example:4555" is not this inspector\'s address (use localhost:4555, 127.0.0.1:4555 or [::1]:4555, or the address it was started on).',
    });
    // Bound to one other address, it names none: the loopback names do not reach it.
    const lan = createHostOriginGuard({ host: "192.168.1.20", port: 4555 });
    expect(refusal({ host: "localhost:4555" }, lan)?.message).toBe(
      'The Host header "localhost:4555" is not this inspector\'s address (use the address it was started on).',
    );
  });

  it("issue 34: an Origin the shared policy refuses is 403 origin_not_allowed; a page of this server under another loopback name passes", () => {
    expect(refusal({ host: "127.0.0.1:4555", origin: "http://attacker.example" })).toEqual({
      status: 403,
      code: "origin_not_allowed",
      message: 'Requests from pages of "http://attacker.example" are refused: only the inspector\'s own page may call its API.',
    });
    expect(refusal({ host: "127.0.0.1:4555", origin: "http://localhost:4556" })?.code).toBe("origin_not_allowed");
    expect(refusal({ host: "127.0.0.1:4555", origin: "http://127.0.0.1:4555" })).toBeUndefined();
    expect(refusal({ host: "127.0.0.1:4555", origin: "http://localhost:4555" })).toBeUndefined();
    // Another loopback address with this port may be another server's: its pages are refused.
    expect(refusal({ host: "127.0.0.1:4555", origin: "http://127.9.9.9:4555" })?.code).toBe("origin_not_allowed");
  });
});
