import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundledEntries } from "../../../tooling/scripts/bundle-entries.mjs";

// The built package (turbo builds it before its tests), installed in a consumer's folder by name.
const packageRoot = realpathSync(fileURLToPath(new URL("..", import.meta.url)));
const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as {
  exports: Record<string, { types: string; "lookup-knowledge-unbundled": string; default: string } | string>;
};
const bundleInputs = JSON.parse(readFileSync(join(packageRoot, "dist/bundle/inputs.json"), "utf8")) as Record<string, string[]>;

let consumer: string;

beforeAll(() => {
  consumer = mkdtempSync(join(tmpdir(), "search-port-consumer-"));
  mkdirSync(join(consumer, "node_modules/@lookup-knowledge"), { recursive: true });
  symlinkSync(packageRoot, join(consumer, "node_modules/@lookup-knowledge/search-port"), "dir");
  symlinkSync(join(packageRoot, "../embeddings"), join(consumer, "node_modules/@lookup-knowledge/embeddings"), "dir");
  writeFileSync(join(consumer, "package.json"), '{ "name": "consumer", "private": true, "type": "module" }\n');
});

afterAll(() => {
  rmSync(consumer, { recursive: true, force: true });
});

/** Runs an ES module script in the consumer's folder, where the package is imported by name; returns its last line of output, parsed. */
function runInConsumer(name: string, source: string, env: Record<string, string> = {}): unknown {
  const file = join(consumer, name);
  writeFileSync(file, source);
  const child = spawnSync(process.execPath, [file], { cwd: consumer, encoding: "utf8", env: { ...process.env, ...env }, timeout: 120_000 });
  expect(child.status, child.stderr).toBe(0);
  return JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "null");
}

// A small deterministic embedder (words hashed into 16 buckets), written into the consumer's scripts.
const hashEmbeddings = `
const embed = (text) => {
  const vector = new Array(16).fill(0);
  for (const [word] of text.toLowerCase().matchAll(/[a-z0-9]+/g)) {
    let hash = 2166136261;
    for (const character of word) hash = Math.imul(hash ^ character.charCodeAt(0), 16777619);
    vector[(hash >>> 0) % 16] += 1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
};
const embeddings = {
  identity: { id: "test/hash", version: "1", dimension: 16 },
  embedQuery: async (text) => embed(text),
  embedDocuments: async (texts) => texts.map(embed),
};
const record = (index) => ({
  id: "doc-" + index + "#chunk-0",
  content: "Record " + index + " about " + (index % 7 === 0 ? "refunds for a cancelled order" : "parcels leaving the warehouse") + " number " + (index % 101),
  metadata: { docId: "doc-" + index, chunkIndex: 0, category: index % 2 === 0 ? "billing" : "logistics" },
});
`;

describe("issue 36 item 5: the package's entries are bundled ES modules, found through its exports", () => {
  it("every entry's default is its bundle in dist/bundle, built from tsc's file that its types and its unbundled condition name", () => {
    const entries = bundledEntries(manifest);
    expect(Object.keys(entries).sort()).toEqual(["index", "langchain", "libsql", "local", "pinecone", "testing"]);
    for (const [name, built] of Object.entries(entries)) {
      expect(existsSync(join(packageRoot, "dist/bundle", `${name}.js`)), name).toBe(true);
      expect(existsSync(join(packageRoot, built)), built).toBe(true);
    }
    // An entry whose types do not name tsc's file is refused, naming it.
    expect(() => bundledEntries({ exports: { "./x": { types: "./x.d.ts", default: "./dist/bundle/x.js" } } })).toThrow(
      /exports\["\.\/x"\]/,
    );
  });

  it("one copy of each module: no module of the package is in two files of the bundle (entries share chunks)", () => {
    const files = new Map<string, string[]>();
    for (const [output, inputs] of Object.entries(bundleInputs)) {
      for (const input of inputs) files.set(input, [...(files.get(input) ?? []), output]);
    }
    expect([...files].filter(([, outputs]) => outputs.length > 1)).toEqual([]);
    // The error classes `.` and `./local` both reach are in one shared chunk, not in either entry's file.
    const holding = files.get("dist/invalid-write-error.js") ?? [];
    expect(holding).toHaveLength(1);
    expect(holding[0]).toMatch(/^chunk-/);
  });

  it("a consumer importing it by name: the local port writes, searches and fetches, and the error ./local throws is the class `.` exports", () => {
    const report = runInConsumer(
      "use.mjs",
      `import { InvalidWriteError, canFetchRecords } from "@lookup-knowledge/search-port";
import { IndexNotFoundError, openLocalSearchPort } from "@lookup-knowledge/search-port/local";
import { createInMemorySearchPort } from "@lookup-knowledge/search-port/testing";
${hashEmbeddings}
const directory = ${JSON.stringify(join(consumer, "index-small"))};
const missing = await openLocalSearchPort({ directory, mode: "read" }).catch((error) => error);
const writer = await openLocalSearchPort({ directory, mode: "write", embeddings });
await writer.upsert(Array.from({ length: 50 }, (_, index) => record(index)));
await writer.commit();
const invalid = await writer.upsert([{ id: "", content: "x", metadata: {} }]).catch((error) => error);
await writer.close();
const reader = await openLocalSearchPort({ directory, mode: "read", embeddings });
const hits = await reader.search({ query: "refunds cancelled order", topK: 3 });
const fetched = canFetchRecords(reader) ? await reader.fetchRecords([hits[0].id]) : [];
await reader.close();
const memory = createInMemorySearchPort([record(1)]);
console.log(JSON.stringify({
  missing: missing instanceof IndexNotFoundError,
  invalid: invalid instanceof InvalidWriteError,
  invalidName: invalid?.name,
  hits: hits.map((hit) => hit.id),
  fetched: fetched[0]?.content ?? null,
  memory: (await memory.search({ query: "parcels", topK: 1 })).length,
}));`,
    ) as { missing: boolean; invalid: boolean; invalidName: string; hits: string[]; fetched: string | null; memory: number };
    expect(report.missing).toBe(true);
    expect(report.invalidName).toBe("InvalidWriteError");
    expect(report.invalid).toBe(true);
    expect(report.hits).toHaveLength(3);
    expect(report.hits.every((id) => Number(/doc-(\d+)/.exec(id)?.[1]) % 7 === 0)).toBe(true);
    expect(report.fetched).toContain("refunds for a cancelled order");
    expect(report.memory).toBe(1);
  });

  it("a one-query lexical process loads fewer than 20 of the package's modules (1ebe778's unbundled build: 139)", () => {
    runInConsumer(
      "build-index.mjs",
      `import { openLocalSearchPort } from "@lookup-knowledge/search-port/local";
${hashEmbeddings}
const writer = await openLocalSearchPort({ directory: ${JSON.stringify(join(consumer, "index-lexical"))}, mode: "write" });
await writer.upsert(Array.from({ length: 200 }, (_, index) => record(index)));
await writer.commit();
await writer.close();
console.log("true");`,
    );
    const query = (entry: string) =>
      loadedModules(
        [
          "--input-type=module",
          "-e",
          `const { openLocalSearchPort } = await import(${JSON.stringify(entry)});
const port = await openLocalSearchPort({ directory: ${JSON.stringify(join(consumer, "index-lexical"))}, mode: "read" });
const hits = await port.search({ query: "refunds for a cancelled order", topK: 10 });
await port.close();
console.log(hits.length);`,
        ],
        { cwd: consumer },
      );
    const ownModules = (urls: string[]) =>
      urls.filter((url) => url.startsWith(pathToFileURL(`${packageRoot}/`).href) && !url.includes("/node_modules/"));
    const bundled = query("@lookup-knowledge/search-port/local");
    expect(bundled.status, bundled.stderr).toBe(0);
    expect(bundled.stdout.trim()).toBe("10");
    expect(ownModules(bundled.urls).every((url) => url.includes("/dist/bundle/"))).toBe(true);
    expect(ownModules(bundled.urls).length).toBeLessThan(20);
    // The bound fails on tsc's files, which is what the package's exports named before.
    const unbundled = query(pathToFileURL(join(packageRoot, "dist/local/index.js")).href);
    expect(unbundled.status, unbundled.stderr).toBe(0);
    expect(unbundled.stdout.trim()).toBe("10");
    expect(ownModules(unbundled.urls).length).toBeGreaterThan(100);
  });

  it("a one-query hybrid process with the offline embedder loads the workspace's packages (core, text, embeddings too) from their bundles only: fewer than 20 files (1ebe778: 193)", () => {
    const run = loadedModules(
      [
        "--input-type=module",
        "-e",
        `const { openLocalSearchPort } = await import("@lookup-knowledge/search-port/local");
const { createOfflineEmbeddings } = await import("@lookup-knowledge/embeddings");
const directory = ${JSON.stringify(join(consumer, "index-hybrid"))};
const writer = await openLocalSearchPort({ directory, mode: "write", embeddings: createOfflineEmbeddings() });
await writer.upsert([{ id: "a#0", content: "Refunds for a cancelled order take five days.", metadata: { docId: "a", chunkIndex: 0 } }]);
await writer.commit();
await writer.close();
const port = await openLocalSearchPort({ directory, mode: "read", embeddings: createOfflineEmbeddings() });
const hits = await port.search({ query: "refund of a cancelled order", topK: 10 });
await port.close();
console.log(hits.length);`,
      ],
      { cwd: consumer },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("1");
    const workspaceRoot = pathToFileURL(join(packageRoot, "../..")).href;
    const workspaceModules = run.urls.filter((url) => url.startsWith(`${workspaceRoot}/`) && !url.includes("/node_modules/"));
    expect(workspaceModules.filter((url) => !url.includes("/dist/bundle/"))).toEqual([]);
    expect(workspaceModules.length).toBeLessThan(20);
    for (const name of ["search-port", "core", "text", "embeddings"])
      expect(
        workspaceModules.some((url) => url.includes(`/packages/${name}/dist/bundle/`)),
        name,
      ).toBe(true);
  });
});

// Records a process's worker threads: each one created, whether it came online, and its errors.
// With BREAK_WORKER set, the worker runs a script that fails at load (so the check sees a failure).
const watchWorkers = `
import { createRequire, syncBuiltinESMExports } from "node:module";
const threads = createRequire(import.meta.url)("node:worker_threads");
const watched = { created: 0, online: 0, errors: [], lost: [] };
const Original = threads.Worker;
threads.Worker = class extends Original {
  constructor(source, options) {
    super(process.env.BREAK_WORKER ? "require('node:fs'); import('x');" : source, options);
    watched.created += 1;
    this.on("online", () => { watched.online += 1; });
    this.on("error", (error) => { watched.errors.push(String(error)); });
  }
};
syncBuiltinESMExports();
process.on("warning", (warning) => { if (/helper/i.test(warning.message)) watched.lost.push(warning.message); });
`;

describe("issue 36 item 7: the dense-scan worker starts from the bundled entry", () => {
  const scan = `${watchWorkers}
const { openLocalSearchPort } = await import("@lookup-knowledge/search-port/local");
${hashEmbeddings}
const directory = ${JSON.stringify(join(tmpdir(), `search-port-bundled-worker-${process.pid}`))};
const { rmSync } = await import("node:fs");
rmSync(directory, { recursive: true, force: true });
const writer = await openLocalSearchPort({ directory, mode: "write", embeddings });
// More rows than a scan takes alone (parallelScanRows, 16,384): searches split the scan with the worker.
for (let start = 0; start < 20000; start += 5000) await writer.upsert(Array.from({ length: 5000 }, (_, index) => record(start + index)));
await writer.commit();
await writer.close();
const reader = await openLocalSearchPort({ directory, mode: "read", embeddings });
for (let search = 0; search < 20; search += 1) await reader.search({ query: "refunds for a cancelled order number " + search, topK: 5 });
await new Promise((resolve) => setTimeout(resolve, 300));
for (let search = 0; search < 20; search += 1) await reader.search({ query: "parcels leaving number " + search, topK: 5 });
await new Promise((resolve) => setTimeout(resolve, 100));
await reader.close();
rmSync(directory, { recursive: true, force: true });
console.log(JSON.stringify(watched));`;

  it("a search over 20,000 vectors starts the worker, which loads and runs; a worker that fails at load is seen", () => {
    const report = runInConsumer("scan.mjs", scan) as { created: number; online: number; errors: string[]; lost: string[] };
    expect(report.created).toBeGreaterThan(0);
    expect(report.online).toBe(report.created);
    expect(report.errors).toEqual([]);
    expect(report.lost).toEqual([]);
    const broken = runInConsumer("scan-broken.mjs", scan, { BREAK_WORKER: "1" }) as { errors: string[]; lost: string[] };
    expect(broken.errors.length + broken.lost.length).toBeGreaterThan(0);
  });
});
