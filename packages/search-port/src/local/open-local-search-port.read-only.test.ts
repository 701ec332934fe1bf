import { fileURLToPath } from "node:url";
import { ConfigurationError } from "@lookup-knowledge/core";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { describe, expect, it } from "vitest";
import { build, directory, ids, open, records, useIndexFolder } from "./test/local-port-test-fixtures.js";

useIndexFolder();

// The built package, as a program loads it (turbo builds the package before its tests).
const entry = fileURLToPath(new URL("../../dist/local/index.js", import.meta.url));
const writerModule = /\/search-port\/dist\/local\/(writer\/|port\/write-mode\.js)/;

/** Opens the index at `directory` in a process of its own (`mode`), searches it once, and returns what it loaded. */
function openAndSearch(mode: "read" | "write") {
  const run = loadedModules([
    "--input-type=module",
    "-e",
    `const { openLocalSearchPort } = await import(${JSON.stringify(entry)});
     const port = await openLocalSearchPort({ directory: ${JSON.stringify(directory)}, mode: ${JSON.stringify(mode)} });
     const hits = await port.search({ query: "refund for a cancelled order", topK: 3 });
     await port.close();
     console.log(JSON.stringify(hits.map((hit) => hit.id)));`,
  ]);
  expect(run.status, run.stderr).toBe(0);
  return { urls: run.urls, ids: JSON.parse(run.stdout) as string[] };
}

describe("issue 36 item 5: a reader's port has no writer", () => {
  it("a reader opens and searches without loading the writer's modules; a writer loads them (the check sees them)", async () => {
    await (await build()).close();
    const reader = openAndSearch("read");
    expect(reader.ids[0]).toBe("refunds#chunk-1");
    expect(reader.urls.some((url) => url.endsWith("/dist/local/open-local-search-port.js"))).toBe(true);
    expect(reader.urls.filter((url) => writerModule.test(url))).toEqual([]);
    const writer = openAndSearch("write");
    expect(writer.ids).toEqual(reader.ids);
    expect(writer.urls.some((url) => url.endsWith("/dist/local/writer/local-index-writer.js"))).toBe(true);
  });

  it("a reader refuses every write with a ConfigurationError naming the mode and the folder, and a closed one as closed", async () => {
    await (await build()).close();
    const reader = await open({ mode: "read" });
    const writes = {
      upsert: () => reader.upsert(records),
      deleteDocuments: () => reader.deleteDocuments(["refunds"]),
      commit: () => reader.commit(),
      optimize: () => reader.optimize(),
    };
    for (const [operation, write] of Object.entries(writes)) {
      const error = await write().then(
        () => undefined,
        (refused: unknown) => refused,
      );
      expect(ConfigurationError.isInstance(error), operation).toBe(true);
      expect(error).toMatchObject({ code: "invalid_configuration", key: "mode", value: "read" });
      expect((error as Error).message).toContain(`${operation} needs the index at ${directory} opened with mode "write"`);
    }
    reader.embedAhead(records);
    expect(ids(await reader.search({ query: "refund for a cancelled order", topK: 1 }))).toEqual(["refunds#chunk-1"]);
    await reader.close();
    await expect(reader.upsert(records)).rejects.toMatchObject({ code: "index_closed" });
    await expect(reader.commit()).rejects.toMatchObject({ code: "index_closed" });
  });
});
