import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { readManifest } from "./format/read-manifest.js";
import type { SegmentedManifest } from "./format/segmented-manifest.js";
import { openLocalSearchPort } from "./open-local-search-port.js";
import { random } from "./test/seeded-random-test-fixtures.js";

/** The built port (internal entry with commit hooks): the child runs compiled code (turbo builds before it tests). */
const builtPort = join(dirname(fileURLToPath(import.meta.url)), "../../dist/local/open-local-search-port.js");

let directory: string;
const children: Array<ReturnType<typeof spawn>> = [];

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "local-port-kill-"));
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  rmSync(directory, { recursive: true, force: true });
});

/** The chunks of document `index` in version `version` (the child writes the same ones). */
const chunkScript = `(index, version) => [0, 1].map((chunk) => ({
  id: "doc" + index + "#chunk-" + chunk,
  content: "topic" + (index % 7) + " word" + ((index * 13 + chunk) % 29) + " version" + version + " shared text",
  metadata: { docId: "doc" + index, chunkIndex: chunk },
}))`;
const chunksOf = new Function(`return ${chunkScript}`)() as (index: number, version: number) => KnowledgeRecord[];

/**
 * Starts a writer in another process that changes documents and commits, with merges every
 * few commits and an `optimize` every seventh, until it is killed. Resolves once it has committed `warmUp` times.
 */
function startBusyWriter(warmUp: number): Promise<ReturnType<typeof spawn>> {
  if (!existsSync(builtPort)) throw new Error(`${builtPort} is missing: build the package first (pnpm turbo run build)`);
  const script = [
    `const { openLocalSearchPortWithHooks } = await import(${JSON.stringify(pathToFileURL(builtPort).href)});`,
    `const chunksOf = ${chunkScript};`,
    `const writer = await openLocalSearchPortWithHooks({ directory: ${JSON.stringify(directory)}, mode: "write" },`,
    "  { mergePolicy: { segmentsPerLevel: 3, floorRecords: 2, maxMergedRecords: 1e9, deletedShare: 0.3 } });",
    "for (let round = 1; ; round += 1) {",
    "  for (let change = 0; change < 3; change += 1) {",
    "    const index = (round * 7 + change * 11) % 40;",
    "    if (round % 5 === change) await writer.deleteDocuments(['doc' + index]);",
    "    else await writer.upsert(chunksOf(index, round));",
    "  }",
    "  if (round % 7 === 0) await writer.optimize(); else await writer.commit();",
    "  process.stdout.write('committed ' + round + '\\n');",
    "}",
  ].join("\n");
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let errors = "";
  child.stderr?.on("data", (data: Buffer) => (errors += data.toString()));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (data: Buffer) => {
      out += data.toString();
      if (out.split("\n").filter((line) => line.startsWith("committed")).length >= warmUp) resolve(child);
    });
    child.on("exit", (code, signal) => reject(new Error(`the writer exited (${code ?? signal}): ${errors}`)));
  });
}

/** The answers of an index that depend on its records: every record, and the hits of a few queries with scores. */
async function answersOf(folder: string) {
  const reader = await openLocalSearchPort({ directory: folder, minScore: 0 });
  try {
    const ids = Array.from({ length: 40 }, (_, index) => [`doc${index}#chunk-0`, `doc${index}#chunk-1`]).flat();
    const records = (await reader.fetchRecords(ids)).filter((record) => record !== undefined);
    const hits = [];
    for (const query of ["topic3 shared", "word5 version", "topic1 word17 text"]) {
      hits.push((await reader.search({ query, topK: 10 })).map((hit) => [hit.id, hit.score]));
    }
    return { records, hits, chunks: reader.stats().chunks, documents: reader.stats().documents };
  } finally {
    await reader.close();
  }
}

describe("issue 36 item 2: a writer killed at any point of a commit or a merge leaves the last commit whole", () => {
  it.skipIf(process.platform === "win32")(
    "killed (SIGKILL) at random moments while it commits, merges and optimizes: readers load the last commit, as a fresh build of its records answers",
    async () => {
      const next = random(3631);
      for (let round = 0; round < 6; round += 1) {
        const child = await startBusyWriter(2 + Math.floor(4 * next()));
        await new Promise((resolve) => setTimeout(resolve, Math.floor(120 * next())));
        child.kill("SIGKILL");
        await new Promise((resolve) => child.once("exit", resolve));
        const manifest = readManifest(directory) as SegmentedManifest;
        expect(manifest.formatVersion).toBe(7);
        const answers = await answersOf(directory);
        expect(answers.chunks).toBe(answers.records.length);
        // The same records built fresh answer the same.
        const elsewhere = mkdtempSync(join(tmpdir(), "local-port-kill-fresh-"));
        try {
          const writer = await openLocalSearchPort({ directory: elsewhere, mode: "write" });
          await writer.upsert(answers.records.map(({ id, content, metadata }) => ({ id, content, metadata })));
          await writer.commit();
          await writer.close();
          expect(answers).toEqual(await answersOf(elsewhere));
        } finally {
          rmSync(elsewhere, { recursive: true, force: true });
        }
      }
      // The dead writer's lock is taken over at once (its process is gone), and the next commit goes on.
      const writer = await openLocalSearchPort({ directory, mode: "write" });
      await writer.upsert(chunksOf(41, 1));
      await writer.optimize();
      expect(writer.stats().chunks).toBe((await answersOf(directory)).chunks);
      await writer.close();
    },
    60_000,
  );
});

describe("issue 36 item 4: flushed segments are synced only at the commit that lists them", () => {
  it.skipIf(process.platform === "win32")(
    "a writer killed (SIGKILL) after flushing segments and before its commit leaves the previous commit, which readers load whole",
    async () => {
      if (!existsSync(builtPort)) throw new Error(`${builtPort} is missing: build the package first (pnpm turbo run build)`);
      const first = await openLocalSearchPort({ directory, mode: "write" });
      for (let index = 0; index < 10; index += 1) await first.upsert(chunksOf(index, 0));
      await first.commit();
      await first.close();
      const committed = await answersOf(directory);
      const script = [
        `const { openLocalSearchPortWithHooks } = await import(${JSON.stringify(pathToFileURL(builtPort).href)});`,
        `const chunksOf = ${chunkScript};`,
        `const writer = await openLocalSearchPortWithHooks({ directory: ${JSON.stringify(directory)}, mode: "write" }, { flushRecords: 8 });`,
        // Changed and new documents, flushed as segments of 8 records: no commit follows.
        "for (let index = 0; index < 40; index += 1) await writer.upsert(chunksOf(index, 1));",
        "await writer.deleteDocuments(['doc3']);",
        "process.stdout.write('flushed\\n');",
        "setInterval(() => undefined, 1000);",
      ].join("\n");
      const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
      children.push(child);
      let errors = "";
      child.stderr?.on("data", (data: Buffer) => (errors += data.toString()));
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on("data", (data: Buffer) => {
          if (data.toString().includes("flushed")) resolve();
        });
        child.on("exit", (code, signal) => reject(new Error(`the writer exited (${code ?? signal}): ${errors}`)));
      });
      const manifest = readManifest(directory) as SegmentedManifest;
      const listed = new Set(manifest.segments.flatMap((segment) => Object.values(segment.files).map((entry) => entry?.name)));
      // The flushes wrote segments of their own (generation 2), which no manifest lists.
      const flushed = readdirSync(directory).filter((name) => name.startsWith("00000002-") && !listed.has(name));
      expect(flushed.length).toBeGreaterThan(0);
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      expect((readManifest(directory) as SegmentedManifest).generation).toBe(manifest.generation);
      expect(await answersOf(directory)).toEqual(committed);
      // The next writer takes the dead one's lock over, and commits from the last commit.
      const writer = await openLocalSearchPort({ directory, mode: "write" });
      expect(writer.stats().chunks).toBe(20);
      await writer.upsert(chunksOf(11, 2));
      await writer.commit();
      expect(writer.stats().chunks).toBe(22);
      await writer.close();
    },
    60_000,
  );
});
