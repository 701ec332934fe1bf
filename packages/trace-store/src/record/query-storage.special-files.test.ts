import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { queryHashKeyFile, resolveQueryHashKey } from "./query-storage.js";

// Run in a child, with a time limit: a read that waits on a FIFO would hang this test process for ever.
const built = fileURLToPath(new URL("../../dist/record/query-storage.js", import.meta.url));

/** What `resolveQueryHashKey(directory, { create })` does in a child process: its key, or its error's message; `timedOut` when it did not end within 10 s. */
function resolveInChild(directory: string, create: boolean): { key?: string; error?: string; timedOut?: true } {
  const script = `import { resolveQueryHashKey } from ${JSON.stringify(built)};
try { process.stdout.write(JSON.stringify({ key: resolveQueryHashKey(${JSON.stringify(directory)}, { create: ${create} }) ?? null })); }
catch (error) { process.stdout.write(JSON.stringify({ error: error.message })); }`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 10_000 });
  if (run.error !== undefined || run.signal !== null) return { timedOut: true };
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

describe("the trace folder's query-hash key file", () => {
  const folders: string[] = [];
  const folder = (): string => {
    const made = mkdtempSync(join(tmpdir(), "lk-query-key-"));
    folders.push(made);
    return made;
  };
  afterEach(() => {
    for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
  });

  it.skipIf(process.platform === "win32")(
    "issue 36 (session 16, seen and left item 2): a FIFO in its place is not waited on: refused, naming the file",
    () => {
      const directory = folder();
      execFileSync("mkfifo", [join(directory, queryHashKeyFile)]);
      for (const create of [false, true]) {
        const outcome = resolveInChild(directory, create);
        expect(outcome.timedOut).toBeUndefined();
        expect(outcome.error).toContain(join(directory, queryHashKeyFile));
        expect(outcome.error).toContain("not a regular file");
      }
    },
  );

  it("issue 36 (session 16, seen and left item 2): a folder or an oversized file in its place is refused, naming the file; the key is not read whole", () => {
    const directory = folder();
    mkdirSync(join(directory, queryHashKeyFile));
    expect(() => resolveQueryHashKey(directory, { create: false })).toThrow(/query-hash\.key.*not a regular file/);
    const other = folder();
    writeFileSync(join(other, queryHashKeyFile), "k".repeat(1_000_000));
    expect(() => resolveQueryHashKey(other, { create: true })).toThrow(/query-hash\.key.*longer than/);
  });

  it("reads a key made there, and none from a folder without one", () => {
    const directory = folder();
    expect(resolveQueryHashKey(directory, { create: false })).toBeUndefined();
    const made = resolveQueryHashKey(directory, { create: true });
    expect(made).toMatch(/^[0-9a-f]{64}$/);
    expect(resolveQueryHashKey(directory, { create: false })).toBe(made);
  });
});
