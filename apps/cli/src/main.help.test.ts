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

/** The commands a help lists under "Commands:" (not `help`), each as the words that run it. */
function listedCommands(help: string, path: string[]): string[][] {
  const section = help.split(/^Commands:$/m)[1]?.split(/^\S/m)[0] ?? "";
  return [...section.matchAll(/^ {2}(\S+)/gm)]
    .map((match) => match[1] as string)
    .filter((name) => name !== "help")
    .map((name) => [...path, name]);
}

describe("every command's help", () => {
  it("ends with an Examples section of at least two commands a user can paste", async () => {
    const pending: string[][] = [[]];
    const seen: string[] = [];
    while (pending.length > 0) {
      const path = pending.shift() as string[];
      const { code, stdout } = await runLookupKnowledge(cwd, ...path, "--help");
      expect(code, `${path.join(" ")} --help`).toBe(0);
      const examples = stdout.split(/^Examples:$/m)[1];
      expect(examples, `${path.join(" ") || "lookup-knowledge"} --help has an Examples section`).toBeDefined();
      const pasteable = (examples ?? "").split("\n").filter((line) => line.trimStart().startsWith("lookup-knowledge "));
      expect(pasteable.length, `${path.join(" ")} --help examples`).toBeGreaterThanOrEqual(2);
      // An example of a command runs that command.
      for (const line of pasteable) expect(line).toContain(path.at(-1) ?? "lookup-knowledge");
      seen.push(path.join(" "));
      pending.push(...listedCommands(stdout, path));
    }
    expect(seen).toEqual(
      expect.arrayContaining([
        "",
        "ingest",
        "query",
        "explain",
        "eval",
        "calibrate",
        "traces",
        "traces prune",
        "trace",
        "stats",
        "mcp",
        "inspect",
      ]),
    );
  });
});
