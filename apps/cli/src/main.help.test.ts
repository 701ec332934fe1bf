import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { runLookupKnowledge } from "./test/run-lookup-knowledge.js";

// The built command, as a user runs it.
const cwd = tmpdir();
const packageVersion = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;

describe("lookup-knowledge --version", () => {
  it.each(["--version", "-V"])("%s prints the CLI package's version and exits 0", async (flag) => {
    const { code, stdout } = await runLookupKnowledge(cwd, flag);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe(packageVersion);
  });
});
