import { describe, expect, it } from "vitest";
import { parseMarkdownDocument } from "../document/parse-markdown-document.js";
import { directParseChars, parseOnCallingThread } from "./parse-on-calling-thread.js";
import { resolveIngestOptions } from "../options/resolve-ingest-options.js";

// 20,000 short headings, each parsed in full for its text: linear, but about two seconds of
// synchronous work, longer than a file may hold the calling thread.
const manyHeadings = Array.from({ length: 20_000 }, (_, index) => `# *h${index}*\n\nText ${index}.`).join("\n\n");

describe("parseOnCallingThread", () => {
  it("issue 33: a parse longer than its slice is stopped and moved on (here, with no worker, to a second try under its time limit) with the same result", async () => {
    const options = resolveIngestOptions({});
    let asked = 0;
    const document = await parseOnCallingThread(manyHeadings, {
      source: "many.md",
      options,
      signal: undefined,
      workers: () => {
        asked += 1;
        return undefined;
      },
      // A slice far shorter than this parse (seconds), so it is stopped whatever the machine.
      sliceMs: 10,
    });
    // Only a parse that outlived its slice asks for a worker.
    expect(asked).toBe(1);
    expect(document).toEqual(parseMarkdownDocument(manyHeadings, { source: "many.md", options }));
  }, 60_000);

  it("a normal file parses at once on the calling thread and never asks for a worker", async () => {
    expect(manyHeadings.length).toBeGreaterThan(directParseChars);
    let asked = 0;
    const text = "# Guide\n\nThe guide explains the gateway.\n";
    const document = await parseOnCallingThread(text, {
      source: "guide.md",
      options: resolveIngestOptions({}),
      signal: undefined,
      workers: () => {
        asked += 1;
        return undefined;
      },
    });
    expect(asked).toBe(0);
    expect(document.title).toBe("Guide");
  });
});
