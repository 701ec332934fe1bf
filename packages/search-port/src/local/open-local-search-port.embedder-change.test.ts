import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ConfigurationError } from "@lookup-knowledge/core";
import { EmbedderMismatchError } from "./errors/embedder-mismatch-error.js";
import { build, directory, hashEmbeddings, ids, open, records, useIndexFolder } from "./test/local-port-test-fixtures.js";
import { openLocalSearchPort } from "./open-local-search-port.js";

useIndexFolder();

const before = hashEmbeddings({ id: "test/hash", dimension: 32 });
/** The same method in a later version (as the offline embedder's version 2 follows version 1). */
const after = { ...hashEmbeddings({ id: "test/hash", dimension: 32 }), identity: { id: "test/hash", version: "2", dimension: 32 } };

describe("openLocalSearchPort: a writer starting an index of another embedder empty (onEmbedderChange)", () => {
  it("opens it empty; readers keep the old generation until the rebuild commits, then the old files go", async () => {
    await (await build(records, { embeddings: before })).close();
    const oldFiles = readdirSync(directory);
    const writer = await open({ mode: "write", embeddings: after, onEmbedderChange: "start-empty" });
    expect(writer.stats()).toMatchObject({ chunks: 0, embedder: after.identity });
    // Nothing was committed: a reader of the old embedder reads every record as before.
    const oldReader = await open({ embeddings: before, refreshIntervalMs: 0 });
    expect(oldReader.stats().chunks).toBe(records.length);
    expect(readdirSync(directory)).toEqual(expect.arrayContaining(oldFiles));

    await writer.upsert(records.slice(0, 3));
    await writer.commit();
    const newReader = await open({ embeddings: after });
    expect(newReader.stats()).toMatchObject({ chunks: 3, embedder: after.identity });
    expect(ids(await newReader.search({ query: "refund card", topK: 1 }))).toEqual(["refunds#chunk-0"]);
    // The old generation's files were the writer's to remove once replaced.
    const left = readdirSync(directory);
    expect(oldFiles.filter((file) => file !== "manifest.json" && left.includes(file))).toEqual([]);
    await expect(openLocalSearchPort({ directory, embeddings: before })).rejects.toSatisfy((error: unknown) =>
      EmbedderMismatchError.isInstance(error),
    );
  });

  it("leaves the index as it was when the writer closes without committing", async () => {
    await (await build(records, { embeddings: before })).close();
    const writer = await openLocalSearchPort({ directory, mode: "write", embeddings: after, onEmbedderChange: "start-empty" });
    await writer.upsert(records.slice(0, 1));
    await writer.close();
    const reader = await open({ embeddings: before });
    expect(reader.stats()).toMatchObject({ chunks: records.length, embedder: before.identity });
  });

  it("refuses by default, and refuses start-empty to a reader", async () => {
    await (await build(records, { embeddings: before })).close();
    await expect(openLocalSearchPort({ directory, mode: "write", embeddings: after })).rejects.toSatisfy((error: unknown) =>
      EmbedderMismatchError.isInstance(error),
    );
    await expect(openLocalSearchPort({ directory, embeddings: after, onEmbedderChange: "start-empty" })).rejects.toSatisfy(
      (error: unknown) => error instanceof ConfigurationError && /onEmbedderChange/.test(error.message),
    );
    await expect(
      openLocalSearchPort({ directory, mode: "write", embeddings: after, onEmbedderChange: "rebuild" as "start-empty" }),
    ).rejects.toThrow(/onEmbedderChange/);
  });

  it("asks a function, once it holds the lock, what the committed index holds and whether to start empty", async () => {
    await (await build(records, { embeddings: before })).close();
    const asked: unknown[] = [];
    const refuse = openLocalSearchPort({
      directory,
      mode: "write",
      embeddings: after,
      onEmbedderChange: (committed) => {
        asked.push(committed);
        return "refuse";
      },
    });
    await expect(refuse).rejects.toSatisfy((error: unknown) => EmbedderMismatchError.isInstance(error));
    expect(asked).toEqual([{ embedder: before.identity, chunks: records.length, documents: 5 }]);
    const odd = openLocalSearchPort({ directory, mode: "write", embeddings: after, onEmbedderChange: () => "yes" as "refuse" });
    await expect(odd).rejects.toThrow(/onEmbedderChange.*must return/);
    const writer = await open({ mode: "write", embeddings: after, onEmbedderChange: () => "start-empty" });
    expect(writer.stats().chunks).toBe(0);
    await expect(openLocalSearchPort({ directory, embeddings: after, onEmbedderChange: () => "start-empty" })).rejects.toThrow(
      /only a writer/,
    );
  });

  it("opens an index of its own embedder as it is", async () => {
    await (await build(records, { embeddings: before })).close();
    const writer = await open({ mode: "write", embeddings: before, onEmbedderChange: "start-empty" });
    expect(writer.stats().chunks).toBe(records.length);
  });
});
