import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { interruptBudget, optimiseLater } from "./optimise-later.js";
import { builtCli } from "./test/built-cli.js";

// Prints every V8 flag string the process sets (the bin imports `setFlagsFromString` from node:v8),
// and each code-cached file the bin loads (the command line first), from the channel the loader announces its loads on.
const reportFlags = `data:text/javascript,import v8 from "node:v8"; import { syncBuiltinESMExports } from "node:module"; import { subscribe } from "node:diagnostics_channel"; const set = v8.setFlagsFromString; v8.setFlagsFromString = (flags) => { process.stderr.write("v8 flags: " + flags + "\\n"); set(flags); }; syncBuiltinESMExports(); subscribe("lookup-knowledge:code-cached-module", ({ file }) => process.stderr.write("loaded: " + file.split("/").pop() + "\\n"));`;

// Whether this Node's V8 has the flag at all (Node 20's does; Node 21's and later ones' do not).
const v8HasInterruptBudget = /^\s+--interrupt-budget \(/m.test(spawnSync(process.execPath, ["--v8-options"], { encoding: "utf8" }).stdout);

describe("issue 36 item 6: the bin lets V8 optimise later (a larger interrupt budget)", () => {
  it("sets the interrupt budget to four times V8's default", () => {
    const given: string[] = [];
    optimiseLater([], (flags) => given.push(flags), "11.3.244.8-node.38");
    expect(given).toEqual(["--interrupt-budget=270336"]);
    expect(interruptBudget).toBe(270_336);
  });

  it("leaves a budget the process was started with as it is", () => {
    const given: string[] = [];
    optimiseLater(["--interrupt-budget=1000"], (flags) => given.push(flags), "11.3.244.8-node.38");
    optimiseLater(["--stack-size=2000", "--interrupt_budget=1000"], (flags) => given.push(flags), "11.3.244.8-node.38");
    expect(given).toEqual([]);
  });

  it("takes any spelling V8 takes as the process's own budget, and no other flag for it", () => {
    const given: string[] = [];
    for (const own of ["-interrupt-budget=1000", "--interrupt_budget=1000", "--interrupt-budget", "-interrupt_budget=1000"]) {
      optimiseLater([own], (flags) => given.push(flags), "11.3.244.8-node.38");
    }
    expect(given).toEqual([]);
    optimiseLater(["--interrupt-budget-for-feedback-allocation=940"], (flags) => given.push(flags), "11.3.244.8-node.38");
    optimiseLater(["--interrupt_budget_factor_for_feedback_allocation=8"], (flags) => given.push(flags), "11.3.244.8-node.38");
    expect(given).toEqual(["--interrupt-budget=270336", "--interrupt-budget=270336"]);
  });

  it("sets nothing on a V8 without the flag (Node 21's 11.8, 22's 12.4, 24's 13.6: V8 would print 'unrecognized flag')", () => {
    const given: string[] = [];
    for (const version of ["11.8.172.17-node.20", "12.4.254.21-node.57", "13.6.233.17-node.63"]) {
      optimiseLater([], (flags) => given.push(flags), version);
    }
    expect(given).toEqual([]);
  });

  it("sets it exactly where this Node's V8 has the flag", () => {
    const given: string[] = [];
    optimiseLater([], (flags) => given.push(flags));
    expect(given.length === 1).toBe(v8HasInterruptBudget);
  });

  it("sets nothing when V8's flags are frozen (node --freeze-flags-after-init): V8 would abort the process", () => {
    const given: string[] = [];
    optimiseLater(["--freeze-flags-after-init"], (flags) => given.push(flags), "11.3.244.8-node.38");
    optimiseLater(["--freeze_flags_after_init"], (flags) => given.push(flags), "11.3.244.8-node.38");
    expect(given).toEqual([]);
    optimiseLater(["--no-freeze-flags-after-init"], (flags) => given.push(flags), "11.3.244.8-node.38");
    expect(given).toEqual(["--interrupt-budget=270336"]);
    const frozen = spawnSync(process.execPath, ["--freeze-flags-after-init", builtCli, "--version"], { encoding: "utf8" });
    expect(frozen.status, frozen.stderr).toBe(0);
    expect(frozen.stderr).toBe("");
  });

  it("the bin sets it before it runs a command, where its V8 has the flag, and V8 prints nothing of it", () => {
    const run = spawnSync(process.execPath, ["--import", reportFlags, builtCli, "--help"], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain("loaded: command-line.cjs\n");
    if (v8HasInterruptBudget) {
      expect(run.stderr).toContain("v8 flags: --interrupt-budget=270336\n");
      // Before the command line's code has run (or been compiled).
      expect(run.stderr.indexOf("v8 flags:")).toBeLessThan(run.stderr.indexOf("loaded: command-line.cjs"));
    } else expect(run.stderr).not.toContain("v8 flags:");
    expect(run.stderr).not.toContain("unrecognized flag");
    if (!v8HasInterruptBudget) return;
    const started = spawnSync(process.execPath, ["--interrupt-budget=1000", "--import", reportFlags, builtCli, "--help"], {
      encoding: "utf8",
    });
    expect(started.status, started.stderr).toBe(0);
    expect(started.stderr).not.toContain("v8 flags:");
  });

  it("issue 36 (session 16, seen and left): the bin loads node:v8 only when it sets the flag", () => {
    // Node's own list of the built-ins the process loaded, printed at exit.
    const builtIns = `data:text/javascript,process.on("exit", () => process.stderr.write("built-ins: " + process.moduleLoadList.filter((entry) => entry.startsWith("NativeModule ")).map((entry) => entry.slice(13)).join(" ") + "\\n"));`;
    const loadsV8 = (execArgv: string[]): boolean => {
      const run = spawnSync(process.execPath, [...execArgv, "--import", builtIns, builtCli, "--version"], { encoding: "utf8" });
      expect(run.status, run.stderr).toBe(0);
      const loaded = /built-ins: (.*)/.exec(run.stderr)?.[1]?.split(" ");
      expect(loaded, run.stderr).toContain("fs");
      return loaded?.includes("v8") ?? true;
    };
    // A budget of its own (or, on Node 21 and later, any start): no flag is set.
    expect(loadsV8(["--interrupt-budget=1000"])).toBe(false);
    expect(loadsV8([])).toBe(v8HasInterruptBudget);
  });
});
