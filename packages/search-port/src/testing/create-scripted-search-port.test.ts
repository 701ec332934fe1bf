import type { SearchHit } from "@lookup-knowledge/core";
import { describe, expect, it, vi } from "vitest";
import type { SearchRequest } from "../search-request.js";
import { createScriptedSearchPort } from "./create-scripted-search-port.js";

const hit = (id: string, score = 0.8): SearchHit => ({ id, content: `content ${id}`, metadata: { docId: id }, score });

describe("createScriptedSearchPort", () => {
  it("answers call i with script[i] and repeats the last answer past the end", async () => {
    const port = createScriptedSearchPort([[hit("a")], [hit("b")]]);
    const ids = [];
    for (let call = 0; call < 4; call += 1) {
      const hits = await port.search({ query: "q", topK: 5 });
      ids.push(hits.map((one) => one.id));
    }
    expect(ids).toEqual([["a"], ["b"], ["b"], ["b"]]);
    expect(port.calls).toBe(4);
  });

  it("answers [] when the script is empty", async () => {
    const port = createScriptedSearchPort([]);
    await expect(port.search({ query: "q", topK: 5 })).resolves.toEqual([]);
  });

  it("asks a function script with the request and a 0-based call number", async () => {
    const seen: Array<[string, number]> = [];
    const port = createScriptedSearchPort(async (request, call) => {
      seen.push([request.query, call]);
      return call === 0 ? [] : [hit(request.query)];
    });
    await expect(port.search({ query: "first", topK: 5 })).resolves.toEqual([]);
    await expect(port.search({ query: "second", topK: 5 })).resolves.toEqual([hit("second")]);
    expect(seen).toEqual([
      ["first", 0],
      ["second", 1],
    ]);
  });

  it("rejects with the scripted value, and with what a function script throws", async () => {
    const failure = new Error("index unavailable");
    const port = createScriptedSearchPort([{ throws: failure }, { throws: "a string" }]);
    await expect(port.search({ query: "q", topK: 5 })).rejects.toBe(failure);
    await expect(port.search({ query: "q", topK: 5 })).rejects.toBe("a string");

    const throwing = createScriptedSearchPort(() => {
      throw failure;
    });
    await expect(throwing.search({ query: "q", topK: 5 })).rejects.toBe(failure);
  });

  it("passes malformed hits through untouched", async () => {
    const malformed = [{ content: 42 }, null, { id: 7, metadata: "nope", score: "high" }];
    const port = createScriptedSearchPort([{ hits: malformed }, { hits: "not even an array" }, { hits: undefined }, {}]);
    await expect(port.search({ query: "q", topK: 5 })).resolves.toBe(malformed);
    await expect(port.search({ query: "q", topK: 5 })).resolves.toBe("not even an array");
    await expect(port.search({ query: "q", topK: 5 })).resolves.toBeUndefined();
    await expect(port.search({ query: "q", topK: 5 })).resolves.toEqual([]);
  });

  it("waits delayMs before answering or throwing", async () => {
    vi.useFakeTimers();
    try {
      const port = createScriptedSearchPort([
        { hits: [hit("late")], delayMs: 500 },
        { throws: "late failure", delayMs: 200 },
      ]);
      let settled = false;
      const answer = port.search({ query: "q", topK: 5 }).then((hits) => {
        settled = true;
        return hits;
      });
      await vi.advanceTimersByTimeAsync(499);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await expect(answer).resolves.toEqual([hit("late")]);

      const failure = port.search({ query: "q", topK: 5 });
      const caught = failure.catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(200);
      await expect(caught).resolves.toBe("late failure");
    } finally {
      vi.useRealTimers();
    }
  });

  it("rejects a delayed answer with signal.reason as soon as the signal aborts", async () => {
    const port = createScriptedSearchPort([{ hits: [hit("never")], delayMs: 60_000 }]);
    const controller = new AbortController();
    const reason = new Error("caller gave up");
    const pending = port.search({ query: "q", topK: 5, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 5);
    await expect(pending).rejects.toBe(reason);
  });

  it("hangs until the signal aborts, then rejects with an AbortError by default", async () => {
    const port = createScriptedSearchPort([{ hang: true }]);
    const controller = new AbortController();
    let settled = false;
    const pending = port.search({ query: "q", topK: 5, signal: controller.signal });
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });

  it("rejects at once when the signal is already aborted, and still records the request", async () => {
    const port = createScriptedSearchPort([[hit("a")]]);
    const reason = new Error("already cancelled");
    await expect(port.search({ query: "q", topK: 5, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
    expect(port.calls).toBe(1);
    expect(port.requests).toHaveLength(1);
  });

  it("rejects when a slow function script outlives the signal", async () => {
    const port = createScriptedSearchPort(() => new Promise<SearchHit[]>(() => {}));
    const controller = new AbortController();
    const pending = port.search({ query: "q", topK: 5, signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow("stop");
  });

  it("records a copy of every request before answering, filter deep-copied, signal kept", async () => {
    const port = createScriptedSearchPort([{ hang: true }]);
    const controller = new AbortController();
    const filter = { $and: [{ tenant: { $eq: "acme" } }, { category: { $in: ["billing"] } }] };
    const request: SearchRequest = { query: "refund", topK: 20, filter, signal: controller.signal };
    const pending = port.search(request);
    expect(port.requests).toHaveLength(1);
    expect(port.requests[0]).toEqual({ query: "refund", topK: 20, filter, signal: controller.signal });
    expect(port.requests[0]?.signal).toBe(controller.signal);
    expect(port.requests[0]).not.toBe(request);

    filter.$and.push({ tenant: { $eq: "changed later" } });
    request.query = "changed later";
    expect(port.requests[0]?.query).toBe("refund");
    expect(port.requests[0]?.filter).toEqual({ $and: [{ tenant: { $eq: "acme" } }, { category: { $in: ["billing"] } }] });

    controller.abort();
    await expect(pending).rejects.toBeDefined();
  });

  it("records a request without a filter without adding one", async () => {
    const port = createScriptedSearchPort([[]]);
    await port.search({ query: "q", topK: 3 });
    expect(port.requests[0]).toEqual({ query: "q", topK: 3 });
    expect(port.requests[0]).not.toHaveProperty("filter");
  });
});
