import { describe, expect, it } from "vitest";
import { describeStore, parseStoreSettings } from "./store-settings.js";

describe("parseStoreSettings", () => {
  it("R13: is the local index without settings, and reads Pinecone and libSQL settings", () => {
    expect(parseStoreSettings(undefined, "test")).toEqual({ kind: "local" });
    expect(parseStoreSettings({ kind: "pinecone", index: "handbook", namespace: "support", mode: "hybrid" }, "test")).toEqual({
      kind: "pinecone",
      index: "handbook",
      namespace: "support",
      mode: "hybrid",
    });
    expect(parseStoreSettings({ kind: "libsql", url: "file:kb.db" }, "test")).toEqual({ kind: "libsql", url: "file:kb.db" });
  });

  it.each([
    [{ kind: "chroma" }, "store.kind", /expected kind "local", "pinecone", "libsql", got "chroma"/],
    [{ kind: "pinecone" }, "store.index", /index name/],
    [{ kind: "pinecone", index: "x", metric: "manhattan" }, "store.metric", /./],
    [{ kind: "pinecone", index: "x", host: "ftp://x" }, "store.host", /http/],
    [{ kind: "libsql" }, "store.url", /needs its database URL \(--store-url/],
    [{ kind: "libsql", url: "file:x.db", table: "x; drop" }, "store.table", /./],
    [{ kind: "local", index: "x" }, "store.index", /not a setting of a "local" store/],
    [{ kind: "pinecone", index: "x", apiKey: "pc-secret" }, "store.apiKey", /environment only/],
    [{ kind: "libsql", url: "libsql://db.example", authToken: "token" }, "store.authToken", /environment only/],
    [{ kind: "libsql", url: "libsql://db.example?authToken=tok-in-url" }, "store.url", /LIBSQL_AUTH_TOKEN/],
    [{ kind: "libsql", url: "http://reader:pw-in-url@db.example" }, "store.url", /LIBSQL_AUTH_TOKEN/],
  ])("refuses %j with an error naming %s", (raw, key, reason) => {
    let caught: unknown;
    try {
      parseStoreSettings(raw, "settings.json");
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ key });
    expect(String((caught as Error).message)).toMatch(reason);
    expect(String((caught as Error).message)).toMatch(/settings\.json/);
    expect(String((caught as Error).message)).not.toMatch(/pc-secret|token"|tok-in-url|pw-in-url/);
  });

  it("describes a store without its secrets", () => {
    expect(describeStore({ kind: "libsql", url: "libsql://user:pass@db.example.io?authToken=abc" })).toBe(
      "libsql libsql://***@db.example.io?authToken=***, table vectors",
    );
    expect(describeStore({ kind: "pinecone", host: "https://handbook-x.svc.pinecone.io" })).toBe(
      "pinecone host https://handbook-x.svc.pinecone.io, namespace (default)",
    );
  });
});
