import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LookupResult } from "@lookup-knowledge/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLookupKnowledge as lookupKnowledge } from "./test/run-lookup-knowledge.js";

// Clear screen, a window title, colours: what a hostile document, question file or folder name carries.
const escapes = "\u001b[2J\u001b]0;pwned\u0007\u001b[31m";
// Any C0 or C1 control but the line feed that ends the output's own lines.
const control = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/u;

describe("the lookup-knowledge CLI in a terminal", () => {
  let cwd: string;
  let data: string;
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-terminal-"));
    data = `data ${escapes}`;
    await mkdir(join(cwd, "kb"));
    await writeFile(
      join(cwd, "kb", "refunds.md"),
      `---\ntitle: "Refund ${escapes.replace(/\u001b/g, "\\e").replace(/\u0007/g, "\\a")} policy"\n---\n# Refunds ${escapes}\n\nRefunds of a paid invoice are possible for 180 days. ${escapes} Owners can refund.\n`,
    );
    await writeFile(join(cwd, "kb", "webhooks.md"), "# Webhooks\n\nRotate the webhook secret in the dashboard under Integrations.\n");
    const questions = [
      { id: `a1${escapes}`, query: `refund paid invoice ${escapes}`, relevant: ["refunds.md"] },
      { id: "a2", query: "rotate the webhook secret", relevant: ["webhooks.md"] },
      // Out of scope, but near enough for the search to find a hit (calibrate needs one).
      { id: `o1${escapes}`, query: `refund a pizza delivery ${escapes}`, relevant: [] },
      { id: "o2", query: "webhook for a fishing boat", relevant: [] },
    ];
    await writeFile(join(cwd, `questions ${escapes}.jsonl`), questions.map((question) => JSON.stringify(question)).join("\n"));
    expect((await lookupKnowledge(cwd, "--data", data, "ingest", "--no-progress", "kb")).code).toBe(0);
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("query prints no escape sequence from documents or the query; --json keeps the text as it is", async () => {
    const readable = await lookupKnowledge(cwd, "--data", data, "query", `refund paid invoice ${escapes}`);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toMatch(/found +true/);
    expect(readable.stdout).toContain("Refunds \uFFFD[2J\uFFFD]0;pwned\uFFFD");
    expect(readable.stdout).not.toMatch(control);
    const json = await lookupKnowledge(cwd, "--data", data, "query", "--json", "refund paid invoice");
    expect((JSON.parse(json.stdout) as LookupResult).evidenceBlocks[0]?.content).toContain(escapes);
  });

  it("stats, eval, calibrate, traces and trace print no control character from folder names, question files or records", async () => {
    const outputs: string[] = [];
    for (const args of [
      ["stats"],
      ["eval", "--questions", `questions ${escapes}.jsonl`],
      ["calibrate", "--questions", `questions ${escapes}.jsonl`],
      ["traces"],
    ]) {
      const { code, stdout, stderr } = await lookupKnowledge(cwd, "--data", data, ...args);
      expect({ args, code, stderr }).toMatchObject({ code: 0 });
      outputs.push(stdout, stderr);
    }
    const [record] = JSON.parse((await lookupKnowledge(cwd, "--data", data, "traces", "--json", "--limit", "1")).stdout) as Array<{
      id: string;
    }>;
    const trace = await lookupKnowledge(cwd, "--data", data, "trace", record?.id ?? "");
    outputs.push(trace.stdout, trace.stderr);
    for (const output of outputs) expect(output).not.toMatch(control);
    expect(outputs.join("\n")).toContain("data \uFFFD[2J");
  }, 240_000); // the first `traces` creates the embedded trace database

  it("issue 36 item 2: optimize prints no control character from the data folder's name; --json keeps it as it is", async () => {
    const readable = await lookupKnowledge(cwd, "--data", data, "optimize");
    expect({ code: readable.code, stderr: readable.stderr }).toEqual({ code: 0, stderr: "" });
    expect(readable.stdout).not.toMatch(control);
    expect(readable.stdout).toContain("data \uFFFD[2J");
    const json = await lookupKnowledge(cwd, "--data", data, "optimize", "--json");
    expect((JSON.parse(json.stdout) as { dataFolder: string }).dataFolder).toContain(escapes);
  }, 120_000);
});
