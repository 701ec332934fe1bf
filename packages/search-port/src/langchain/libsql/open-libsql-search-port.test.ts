import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describePortConformance } from "../../testing/index.js";
import { openLibsqlSearchPort, redactLibsqlUrl } from "./open-libsql-search-port.js";

const test = { describe, it, beforeAll, afterAll };
const embeddings = createOfflineEmbeddings();
let folder = "";
let stores = 0;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-open-libsql-"));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describePortConformance(
  "R13: openLibsqlSearchPort (a local file, table created on open)",
  async () => {
    stores += 1;
    const port = await openLibsqlSearchPort({ url: `file:${join(folder, `store-${stores}.db`)}`, embeddings });
    return { port, writer: port, close: () => port.close() };
  },
  { test },
);

describe("openLibsqlSearchPort", () => {
  it("R13: keeps what it wrote across a close and a reopen of the file", async () => {
    const url = `file:${join(folder, "reopen.db")}`;
    const writer = await openLibsqlSearchPort({ url, embeddings, table: "chunks" });
    await writer.upsert([
      { id: "refunds#chunk-0", content: "Refunds go back to the original card.", metadata: { docId: "refunds", chunkIndex: 0 } },
    ]);
    await writer.close();
    const reader = await openLibsqlSearchPort({ url, embeddings, table: "chunks" });
    const hits = await reader.search({ query: "refund to my card", topK: 3 });
    expect(hits.map((hit) => hit.id)).toEqual(["refunds#chunk-0"]);
    await reader.close();
  });

  it("refuses a table made for vectors of another dimension, naming both", async () => {
    const url = `file:${join(folder, "dimension.db")}`;
    const small = { embedQuery: async () => [1, 0, 0], embedDocuments: async (texts: string[]) => texts.map(() => [1, 0, 0]) };
    const first = await openLibsqlSearchPort({ url, embeddings: small });
    await first.close();
    await expect(openLibsqlSearchPort({ url, embeddings })).rejects.toThrow(/F32_BLOB\(3\).*356 dimensions/);
  });

  it("never repeats the URL's credentials or the token when the database cannot be opened", async () => {
    const error: unknown = await openLibsqlSearchPort({
      url: "http://reader:Pa55word-secret@127.0.0.1:1/db?authToken=tok-secret-123",
      authToken: "other-token-secret",
      embeddings,
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "vector_store_failed" });
    const message = String((error as Error).message);
    expect(message).toMatch(/could not be opened/);
    for (const secret of ["Pa55word-secret", "tok-secret-123", "other-token-secret", "reader:"]) expect(message).not.toContain(secret);
    expect((error as Error).cause).toBeUndefined();
  });

  it("redacts a libSQL URL for display", () => {
    expect(redactLibsqlUrl("libsql://user:pw@db.example.io/x?authToken=abc&tls=1")).toBe(
      "libsql://***@db.example.io/x?authToken=***&tls=***",
    );
    expect(redactLibsqlUrl("file:knowledge.db")).toBe("file:knowledge.db");
  });

  it.each([
    [{ url: "" }, "url"],
    [{ url: "file:x.db", table: "chunks; drop table x" }, "table"],
    [{ url: "file:x.db", embeddings: {} }, "embeddings"],
  ])("refuses bad options %j with an error naming %s", async (options, key) => {
    await expect(openLibsqlSearchPort({ embeddings, ...options } as never)).rejects.toMatchObject({ key });
  });
});
