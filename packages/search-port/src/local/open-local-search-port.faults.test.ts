import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { CorruptIndexError } from "./corrupt-index-error.js";
import type { LocalSearchPort, LocalSearchPortOptions } from "./local-search-port.js";
import { openLocalSearchPort } from "./open-local-search-port.js";

const records: KnowledgeRecord[] = [
  {
    id: "refunds#chunk-0",
    content: "Refunds are paid back to the original card within five business days.",
    metadata: { docId: "refunds", chunkIndex: 0, title: "Refund policy", category: "billing" },
  },
  {
    id: "shipping#chunk-0",
    content: "Parcels leave the Rotterdam warehouse every weekday at noon.",
    metadata: { docId: "shipping", chunkIndex: 0, title: "Shipping", category: "logistics" },
  },
  {
    id: "passwords#chunk-0",
    content: "To reset a forgotten password, open the sign-in page and follow the reset link sent by email.",
    metadata: { docId: "passwords", chunkIndex: 0, title: "Account security", category: "accounts" },
  },
];

let directory: string;
const opened: LocalSearchPort[] = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "local-port-faults-"));
});

afterEach(async () => {
  for (const port of opened.splice(0)) await port.close();
  rmSync(directory, { recursive: true, force: true });
});

async function open(options: Partial<LocalSearchPortOptions> = {}): Promise<LocalSearchPort> {
  const port = await openLocalSearchPort({ directory, ...options });
  opened.push(port);
  return port;
}

async function build(batch: KnowledgeRecord[] = records): Promise<LocalSearchPort> {
  const writer = await open({ mode: "write" });
  await writer.upsert(batch);
  await writer.commit();
  return writer;
}

/** Flips one byte of the data file whose name ends with `suffix`, keeping its size. */
function flipByte(suffix: string, at: (length: number) => number): string {
  const name = readdirSync(directory).find((entry) => entry.endsWith(suffix)) as string;
  const bytes = readFileSync(join(directory, name));
  const index = at(bytes.length);
  bytes[index] = (bytes[index] ?? 0) ^ 0x01;
  writeFileSync(join(directory, name), bytes);
  return name;
}

const corruptNaming = (name: string) => (error: unknown) =>
  CorruptIndexError.isInstance(error) &&
  error.message.includes(directory) &&
  error.message.includes(name) &&
  /checksum/.test(error.message) &&
  /Rebuild it/.test(error.message);

describe("openLocalSearchPort: silent corruption", () => {
  it("refuses to open an index whose content file has one flipped byte, instead of serving the garbled text", async () => {
    await (await build()).close();
    // A byte inside "Refunds are paid back…": still valid UTF-8, the same size, other text.
    const name = flipByte(".content.txt", () => 3);
    await expect(openLocalSearchPort({ directory })).rejects.toSatisfy(corruptNaming(name));
    await expect(openLocalSearchPort({ directory, mode: "write" })).rejects.toSatisfy(corruptNaming(name));
  });

  it("refuses to open an index whose metadata file has one flipped byte, before any search reads that record", async () => {
    await (await build()).close();
    const name = flipByte(".metadata.txt", (length) => length - 4);
    await expect(openLocalSearchPort({ directory })).rejects.toSatisfy(corruptNaming(name));
  });
});
