import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isEsModule } from "@lookup-knowledge/vitest-config/is-es-module";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// What users load: the bundle `./local` defaults to (the tests of open-local-search-port.*.test.ts
// check the same on tsc's files, which only the CLI's bundle step reads now).
const packageRoot = realpathSync(fileURLToPath(new URL("..", import.meta.url)));
const bundle = join(packageRoot, "dist/bundle");
const local = pathToFileURL(join(bundle, "local.js")).href;
const bundleInputs = JSON.parse(readFileSync(join(bundle, "inputs.json"), "utf8")) as Record<string, string[]>;
const writerModule = /^dist\/local\/(writer\/|port\/write-mode\.js)/;
const zodModule = /\/zod@[^/]+\/node_modules\/zod\//;

let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), "search-port-bundled-reader-"));
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** Opens the index in `mode` in a process of its own, from the bundle; the modules the bundle's files it loaded hold, and what else it loaded. */
function openFromBundle(mode: "read" | "write") {
  const write = `await port.upsert([{ id: "refunds#0", content: "Refunds for a cancelled order take five days.", metadata: { docId: "refunds", chunkIndex: 0 } }]);
await port.commit();`;
  const run = loadedModules([
    "--input-type=module",
    "-e",
    `const { openLocalSearchPort } = await import(${JSON.stringify(local)});
const port = await openLocalSearchPort({ directory: ${JSON.stringify(directory)}, mode: ${JSON.stringify(mode)} });
${mode === "write" ? write : ""}
const hits = await port.search({ query: "refund for a cancelled order", topK: 3 });
await port.close();
console.log(JSON.stringify(hits.map((hit) => hit.id)));`,
  ]);
  expect(run.status, run.stderr).toBe(0);
  const held = run.urls
    .filter((url) => url.startsWith(pathToFileURL(`${bundle}/`).href))
    .flatMap((url) => bundleInputs[url.slice(url.lastIndexOf("/") + 1)] ?? []);
  return { ids: JSON.parse(run.stdout) as string[], held, urls: run.urls };
}

describe("issue 36 item 5 (review): a reader of the bundled ./local", () => {
  it("loads none of the writer's modules, no zod and no CommonJS package; a writer loads the writer's (the check sees them)", () => {
    const writer = openFromBundle("write");
    expect(writer.ids).toEqual(["refunds#0"]);
    expect(writer.held.filter((input) => writerModule.test(input)).length).toBeGreaterThan(0);
    const reader = openFromBundle("read");
    expect(reader.ids).toEqual(["refunds#0"]);
    expect(reader.held).toContain("dist/local/open-local-search-port.js");
    expect(reader.held.filter((input) => writerModule.test(input))).toEqual([]);
    expect(reader.urls.filter((url) => zodModule.test(url))).toEqual([]);
    expect(reader.urls.filter((url) => url.includes("/node_modules/") && !isEsModule(url))).toEqual([]);
  });
});
