import { CorruptIndexError } from "@lookup-knowledge/search-port/local";
import { describe, expect, it, vi } from "vitest";
import { connectClient, textOf } from "./test/connect-client.js";
import { useIngestedExample } from "./test/example-knowledge-base.js";

describe("a store that fails under fetch_evidence", () => {
  const ingested = useIngestedExample();

  it("issue 33: the model reads the failure's code, never the store's message with its local paths; stderr gets the message", async () => {
    const { knowledgeBase } = ingested();
    const port = Object.create(knowledgeBase.store.port) as typeof knowledgeBase.store.port & { fetchRecords: unknown };
    port.fetchRecords = async () => {
      throw new CorruptIndexError({ directory: "/home/ops/secret-tenant/index", reason: "checksum mismatch in keys.bin" });
    };
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      await using client = await connectClient({ retriever: knowledgeBase.retriever, store: { ...knowledgeBase.store, port } });
      const result = await client.callTool({ name: "fetch_evidence", arguments: { document_id: "billing/refunds#chunk-0" } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe("The call failed (corrupt_index); the server's log holds the details.");
      expect(logged.mock.calls.flat().join(" ")).toContain("/home/ops/secret-tenant/index");
    } finally {
      logged.mockRestore();
    }
  });
});
