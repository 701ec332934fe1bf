import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeRecord } from "../../test/make-record.js";
import { createTraceSpool } from "./create-trace-spool.js";
import { readSpooledLines } from "./read-spooled-lines.js";

const root = mkdtempSync(join(tmpdir(), "read-spooled-lines-"));
const base = new Date(Date.UTC(2033, 0, 1));

describe("readSpooledLines (issue 35 item 4: what a listing reads from the spool)", () => {
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("reads what a flush would insert: from progress.json's offset, complete lines, records only, the first record of an id", async () => {
    const directory = join(root, "traces");
    const spool = createTraceSpool({ directory });
    const records = Array.from({ length: 4 }, (_, index) => makeRecord(index, base));
    for (const record of records) spool.append(record);
    await spool.close();
    const folder = join(directory, "spool");
    const [segment] = readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
    const file = join(folder, segment as string);
    const firstLine = `${JSON.stringify(records[0])}\n`;
    // The first record is in the database already; then a line that is no record, one whose id
    // repeats a record's (the first stays), and a torn last line.
    writeFileSync(
      join(folder, "progress.json"),
      JSON.stringify({ [(segment as string).slice(0, -".jsonl".length)]: Buffer.byteLength(firstLine) }),
    );
    appendFileSync(file, `not json\n${JSON.stringify({ ...records[1], query: "a repeat" })}\n{"id":"torn"`);
    const lines = readSpooledLines(directory) ?? [];
    expect(lines.map((line) => line.id)).toEqual(records.slice(1).map((record) => record.id));
    expect(lines.map((line) => line.record())).toEqual(records.slice(1));
    expect(lines[0]).toMatchObject({ found: records[1]?.found, query: records[1]?.query, time: Date.parse(records[1]?.createdAt ?? "") });
  });

  it("a repeated id whose first line is no record is read from the next one; a line written in another key order is read whole", async () => {
    const directory = join(root, "traces-2");
    const spool = createTraceSpool({ directory });
    spool.append(makeRecord(0, base));
    await spool.close();
    const folder = join(directory, "spool");
    const file = join(folder, readdirSync(folder).find((name) => name.endsWith(".jsonl")) as string);
    const record = makeRecord(1, base);
    const { retrievalDetails, ...rest } = record;
    appendFileSync(file, `${JSON.stringify({ ...record, found: "yes" })}\n${JSON.stringify(record)}\n`);
    appendFileSync(file, `${JSON.stringify({ retrievalDetails, ...rest, id: "details-first" })}\n`);
    // The details between the id and time and the fields a listing filters on (found, query): read whole too.
    const { id, createdAt, ...others } = rest;
    appendFileSync(file, `${JSON.stringify({ id: "details-between", createdAt, retrievalDetails, ...others })}\n`);
    const lines = readSpooledLines(directory) ?? [];
    expect(lines.map((line) => line.id)).toEqual([makeRecord(0, base).id, record.id, "details-first", "details-between"]);
    expect(lines[1]?.record()).toEqual(record);
    expect(lines[2]?.record()?.retrievalDetails).toEqual(retrievalDetails);
    expect(lines[3]).toMatchObject({ found: record.found, fallbackReason: record.fallbackReason, query: record.query });
    expect(lines[3]?.transformedQuery).toBe(record.transformedQuery);
    expect(id).toBe(record.id);
  });

  it("reads nothing past maxBytes of records waiting (only what a flush has not moved counts): the database answers then", async () => {
    const directory = join(root, "traces-3");
    const spool = createTraceSpool({ directory });
    const records = Array.from({ length: 3 }, (_, index) => makeRecord(index, base));
    for (const record of records) spool.append(record);
    await spool.close();
    const bytes = records.reduce((sum, record) => sum + Buffer.byteLength(`${JSON.stringify(record)}\n`), 0);
    expect(readSpooledLines(directory, bytes)?.length).toBe(3);
    expect(readSpooledLines(directory, bytes - 1)).toBeUndefined();
    const folder = join(directory, "spool");
    const segment = readdirSync(folder).find((name) => name.endsWith(".jsonl")) as string;
    writeFileSync(join(folder, "progress.json"), JSON.stringify({ [segment.slice(0, -".jsonl".length)]: bytes - 10 }));
    expect(readSpooledLines(directory, 10)).toEqual([]);
  });
});
