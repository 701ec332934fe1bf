import { describe, expect, it } from "vitest";
import { storeDataSourceId } from "./store-data-source-id.js";

describe("storeDataSourceId", () => {
  it("issue 35 item 3: the local index is named by its data folder", () => {
    expect(storeDataSourceId({ kind: "local" }, "/srv/kb/.my-docs")).toBe(".my-docs");
    expect(storeDataSourceId({ kind: "local" }, "/srv/kb/handbook/")).toBe("handbook");
  });

  it("issue 35 item 3: a Pinecone store by its index (else its host's name) and namespace", () => {
    expect(storeDataSourceId({ kind: "pinecone", index: "handbook" }, ".kb")).toBe("handbook");
    expect(storeDataSourceId({ kind: "pinecone", index: "handbook", namespace: "acme" }, ".kb")).toBe("handbook/acme");
    expect(storeDataSourceId({ kind: "pinecone", host: "https://handbook-x1y2.svc.pinecone.io" }, ".kb")).toBe(
      "handbook-x1y2.svc.pinecone.io",
    );
  });

  it("issue 35 item 3: a libSQL store by its database, never its credentials", () => {
    expect(storeDataSourceId({ kind: "libsql", url: "file:knowledge.db" }, ".kb")).toBe("knowledge.db");
    expect(storeDataSourceId({ kind: "libsql", url: "file:///var/data/kb.db", table: "chunks" }, ".kb")).toBe("kb.db/chunks");
    const remote = storeDataSourceId({ kind: "libsql", url: "libsql://user:secret@kb-acme.turso.io?authToken=abc" }, ".kb");
    expect(remote).toBe("kb-acme.turso.io");
  });
});
