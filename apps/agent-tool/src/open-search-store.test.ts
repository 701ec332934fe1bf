import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { startPineconeTestServer, type PineconeTestServer } from "@lookup-knowledge/search-port/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSearchStore } from "./open-search-store.js";

let server: PineconeTestServer;
let dataDirectory: string;
beforeAll(async () => {
  server = await startPineconeTestServer({ metric: "dotproduct", indexName: "handbook" });
  dataDirectory = await mkdtemp(join(tmpdir(), "lookup-knowledge-open-store-"));
});
afterAll(async () => {
  await server.close();
  await rm(dataDirectory, { recursive: true, force: true });
});

describe("openSearchStore", () => {
  it("R13: keeps the ingest state of each Pinecone index, namespace and mode apart", async () => {
    const environment = { PINECONE_API_KEY: "pc-test" };
    const open = (mode: "dense" | "hybrid", namespace: string) =>
      openSearchStore(
        { kind: "pinecone", host: server.url, metric: "dotproduct", namespace, mode },
        { dataDirectory, mode: "write", environment },
      );
    const dense = await open("dense", "support");
    const hybrid = await open("hybrid", "support");
    const other = await open("dense", "sales");
    expect(new Set([dense.stateDirectory, hybrid.stateDirectory, other.stateDirectory]).size).toBe(3);
    for (const store of [dense, hybrid, other]) expect(store.stateDirectory.startsWith(join(dataDirectory, "stores"))).toBe(true);
    expect(basename(hybrid.stateDirectory)).toMatch(/^pinecone-host-support-hybrid-[0-9a-f]{12}$/);
  });

  it("R13: names a libSQL store's state folder without any part of its URL", async () => {
    const url = `file:${join(dataDirectory, "knowledge-private-name.db")}`;
    const store = await openSearchStore({ kind: "libsql", url, table: "chunks" }, { dataDirectory, mode: "write" });
    expect(basename(store.stateDirectory)).toMatch(/^libsql-chunks-[0-9a-f]{12}$/);
    await store.close();
  });
});
