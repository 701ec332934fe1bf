import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runWithDeadline } from "./run-with-deadline.js";

const busy = (milliseconds: number) => () => {
  const until = Date.now() + milliseconds;
  while (Date.now() < until) {
    // Synchronous work nothing else can interrupt.
  }
  return "finished";
};

// Issue 33: a parse on the calling thread ignored SIGINT, a second SIGINT and SIGTERM for minutes.
describe("runWithDeadline", () => {
  it("gives the work's value, stops work that runs past its deadline, and throws what the work throws", () => {
    expect(runWithDeadline(() => 42, 1_000)).toEqual({ kind: "done", value: 42 });
    // A hang guard, not a speed figure: the work would run for 30 s.
    const started = Date.now();
    expect(runWithDeadline(busy(30_000), 200)).toEqual({ kind: "timed_out" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(() =>
      runWithDeadline(() => {
        throw new RangeError("bad input");
      }, 1_000),
    ).toThrow("bad input");
  });

  it("a SIGINT that arrives during a minute of work reaches the process's handler once the deadline stops the work", async () => {
    // The built module (turbo builds the package before its tests), in a process of its own.
    const built = fileURLToPath(new URL("../../dist/parse-pool/run-with-deadline.js", import.meta.url));
    const program = `
      const { runWithDeadline } = await import(${JSON.stringify(built)});
      process.on("SIGINT", () => { console.log("handler"); process.exit(0); });
      console.log("ready");
      const outcome = runWithDeadline(() => { const until = Date.now() + 60000; while (Date.now() < until) {} }, 1000);
      console.log(outcome.kind);
      await new Promise((resolve) => setTimeout(resolve, 5000));
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", program], { stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("ready")) setTimeout(() => child.kill("SIGINT"), 200);
    });
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    expect(output.split("\n").filter(Boolean)).toEqual(["ready", "timed_out", "handler"]);
    expect(code).toBe(0);
  }, 20_000);
});
