import { TimeoutError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { runWithTimeout } from "./run-with-timeout.js";

describe("runWithTimeout", () => {
  it("returns the operation's value when it is on time", async () => {
    await expect(runWithTimeout(async () => 7, { timeoutMs: 1000, operationName: "op" })).resolves.toBe(7);
  });

  it("rejects with a TimeoutError and aborts the operation's signal when it is late", async () => {
    let signal: AbortSignal | undefined;
    const error = await runWithTimeout(
      (given) => {
        signal = given;
        return new Promise(() => {});
      },
      { timeoutMs: 10, operationName: "search port" },
    ).catch((caught: unknown) => caught);
    expect(TimeoutError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe("search port did not answer within 10 ms");
    expect(signal?.aborted).toBe(true);
  });

  it("turns a synchronous throw into a rejection", async () => {
    await expect(
      runWithTimeout(
        () => {
          throw new Error("boom");
        },
        { timeoutMs: 1000, operationName: "op" },
      ),
    ).rejects.toThrow("boom");
  });

  it("follows the caller's signal", async () => {
    const controller = new AbortController();
    controller.abort(new Error("already gone"));
    await expect(runWithTimeout(async () => 1, { timeoutMs: 1000, operationName: "op", signal: controller.signal })).rejects.toThrow(
      "already gone",
    );
  });
});
