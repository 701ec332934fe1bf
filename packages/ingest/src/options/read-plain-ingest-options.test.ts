import { parseOptions } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { readPlainIngestOptions } from "./read-plain-ingest-options.js";
import { ingestOptionsSchema, resolveIngestOptions } from "./resolve-ingest-options.js";

const defaults = resolveIngestOptions(undefined);
const merged = (options: Record<string, unknown>): Record<string, unknown> => ({ ...defaults, ...options });

const plain: Array<Record<string, unknown>> = [
  {},
  { maxChunkChars: 200, overlapChars: 0 },
  { maxChunkChars: 800, overlapChars: 400, followSymlinks: true },
  { include: ["docs/**/*.md"], exclude: [], categoryField: "section" },
  { entityFields: [], keywordFields: ["tags", "keywords"], descriptionFields: ["summary"] },
];

const declined: Array<Record<string, unknown>> = [
  { include: [] },
  { include: [" docs/*.md"] },
  { exclude: ["a", ""] },
  { exclude: "node_modules" },
  { categoryField: " " },
  { categoryField: "section " },
  { categoryField: 7 },
  { keywordFields: null },
  { maxChunkChars: 199 },
  { maxChunkChars: 800.5 },
  { maxChunkChars: Number.NaN },
  { maxChunkChars: "800" },
  { overlapChars: -1 },
  { followSymlinks: "yes" },
  { chunkSize: 5 },
];

describe("ingest options read without zod (issue 36 item 6)", () => {
  it.each(plain)("issue 36 item 6: %o reads to what the schema gives", (options) => {
    const read = readPlainIngestOptions(merged(options));
    expect(read).toEqual(parseOptions(ingestOptionsSchema(), merged(options), ""));
    // The lists are the reader's own, as the schema's are.
    expect(read?.include).not.toBe(merged(options)["include"]);
  });

  it("issue 36 item 6: anything else is left to the schema, which reads or refuses it as before", () => {
    for (const options of declined) expect([options, readPlainIngestOptions(merged(options))]).toEqual([options, undefined]);
    // Declined but valid: the schema trims the spaces off.
    expect(resolveIngestOptions({ categoryField: "section " }).categoryField).toBe("section");
    expect(() => resolveIngestOptions({ exclude: ["a", ""] })).toThrow(/exclude\.1/);
  });

  it("issue 36 item 6 (review): a list with holes is left to the schema, which refuses the hole by its place", () => {
    // `every` skips a hole: a sparse list passed the plain checks and read to undefined patterns.
    // biome-ignore lint/suspicious/noSparseArray: the hole is what is tested
    const sparse = [, "docs/*.md"];
    for (const key of ["include", "exclude", "entityFields", "keywordFields", "descriptionFields"]) {
      expect([key, readPlainIngestOptions(merged({ [key]: sparse }))]).toEqual([key, undefined]);
      expect(() => resolveIngestOptions({ [key]: sparse })).toThrow(new RegExp(`${key}\\.0=undefined`));
    }
    expect(() => resolveIngestOptions({ include: new Array(2) })).toThrow(/include\.0=undefined/);
  });

  it("issue 36 item 6 (review): options with an own __proto__ key are left to the schema, which refuses the keys it brings as before", () => {
    // The merge assigns a "__proto__" key, which sets the merged object's prototype: the schema's
    // strict check reads inherited keys too (for...in), the plain checks only own ones.
    const options = JSON.parse('{"__proto__": {"chunkSize": 5}}') as Record<string, unknown>;
    const merged: Record<string, unknown> = { ...defaults };
    for (const [key, value] of Object.entries(options)) merged[key] = value;
    expect(readPlainIngestOptions(merged)).toBeUndefined();
    expect(() => resolveIngestOptions(options)).toThrow(/Unrecognized key: "chunkSize"/);
    // One that brings no key reads as the schema reads it.
    expect(resolveIngestOptions(JSON.parse('{"__proto__": {}}') as Record<string, unknown>)).toEqual(defaults);
  });

  it("issue 36 item 6: a list that gives other values on a second read (its iterator, a place's getter) yields only what was checked", () => {
    // Its own iterator yields a pattern the checks never saw.
    const iterated = ["docs/**/*.md"];
    Object.defineProperty(iterated, Symbol.iterator, {
      value: function* () {
        yield "/etc/**";
      },
    });
    // A place that reads one value, then another.
    let reads = 0;
    const changing: string[] = [];
    Object.defineProperty(changing, 0, { enumerable: true, get: () => (reads++ === 0 ? "notes/**" : " ") });
    for (const key of ["include", "exclude", "entityFields", "keywordFields", "descriptionFields"]) {
      const first = readPlainIngestOptions(merged({ [key]: iterated }));
      expect([key, first?.[key as "include"]]).toEqual([key, ["docs/**/*.md"]]);
      reads = 0;
      const second = readPlainIngestOptions(merged({ [key]: changing }));
      expect([key, second?.[key as "include"]]).toEqual([key, ["notes/**"]]);
    }
  });
});
