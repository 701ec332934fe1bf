import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The ingest benches run each measurement in a child process. A child that fails is reported by
// the bench's error; Node's own report of an uncaught error ends with its version line, so the
// last line alone ("Node.js v20.20.2") said nothing of what went wrong.

const parsePasses = fileURLToPath(new URL("../../../bench/ingest-peers/parse-passes.mjs", import.meta.url));

describe("bench/ingest-peers: a failed child", () => {
  it("issue 36 (session 16, seen and left item 6): parse-passes reports the child's stderr, not only its last line", () => {
    const missing = "/nonexistent/lookup-knowledge-bench-tree";
    const run = spawnSync(process.execPath, [parsePasses, missing], {
      encoding: "utf8",
      env: { ...process.env, BENCH_INGEST_ROUNDS: "1", BENCH_PARSE_PASSES: "1" },
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/share 1\/\d+ failed/);
    // The child's error (readdirSync of the missing tree), and the line Node ends its report with.
    expect(run.stderr).toContain(`ENOENT: no such file or directory, scandir '${missing}'`);
    expect(run.stderr).toMatch(/Node\.js v\d+/);
  });

  it("keeps the last 40 lines of a longer stderr and says how many it left out", () => {
    const childStderr = new URL("../../../bench/ingest-peers/child-stderr.mjs", import.meta.url).href;
    const script = `import { childStderr } from ${JSON.stringify(childStderr)}; const lines = Array.from({ length: 100 }, (_, index) => "line " + index); process.stdout.write(childStderr(lines.join("\\n") + "\\n"));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const shown = run.stdout.split("\n");
    expect(shown).toEqual(["(60 earlier lines left out)", ...Array.from({ length: 40 }, (_, index) => `line ${index + 60}`)]);
  });

  it("issue 36 (session 16, seen and left item 6, review): no ingest bench throws on a failed child with its last stderr line only", () => {
    const folder = fileURLToPath(new URL("../../../bench/ingest-peers/", import.meta.url));
    // A throw that quotes only the last line of a child's stderr, as every script did before child-stderr.mjs.
    const lastLineOnly = /throw new Error\(`[^`]*\$\{\(\w+\.stderr \?\? ""\)\.trim\(\)\.split\("\\n"\)\.slice\(-1\)\[0\]\}/;
    const offenders = readdirSync(folder)
      .filter((name) => name.endsWith(".mjs"))
      .filter((name) => lastLineOnly.test(readFileSync(join(folder, name), "utf8")));
    expect(offenders).toEqual([]);
  });
});
