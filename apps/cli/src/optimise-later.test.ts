import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { interruptBudget, optimiseLater } from "./optimise-later.js";
import { builtCli } from "./test/built-cli.js";

// Prints every V8 flag string the process sets (the bin imports `setFlagsFromString` from node:v8).
const reportFlags = `data:text/javascript,import v8 from "node:v8"; import { syncBuiltinESMExports } from "node:module"; const set = v8.setFlagsFromString; v8.setFlagsFromString = (flags) => { process.stderr.write("v8 flags: " + flags + "\\n"); set(flags); }; syncBuiltinESMExports();`;

describe("issue 36 item 6: the bin lets V8 optimise later (a larger interrupt budget)", () => {
  it("sets the interrupt budget to four times V8's default", () => {
    const given: string[] = [];
    optimiseLater([], (flags) => given.push(flags));
    expect(given).toEqual(["--interrupt-budget=270336"]);
    expect(interruptBudget).toBe(270_336);
  });

  it("leaves a budget the process was started with as it is", () => {
    const given: string[] = [];
    optimiseLater(["--interrupt-budget=1000"], (flags) => given.push(flags));
    optimiseLater(["--stack-size=2000", "--interrupt_budget=1000"], (flags) => given.push(flags));
    expect(given).toEqual([]);
  });

  it("the bin sets it before it runs a command", () => {
    const run = spawnSync(process.execPath, ["--import", reportFlags, builtCli, "--help"], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain("v8 flags: --interrupt-budget=270336\n");
    const started = spawnSync(process.execPath, ["--interrupt-budget=1000", "--import", reportFlags, builtCli, "--help"], {
      encoding: "utf8",
    });
    expect(started.status, started.stderr).toBe(0);
    expect(started.stderr).not.toContain("v8 flags:");
  });
});
