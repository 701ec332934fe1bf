import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectClient } from "./test/connect-client.js";
import { useIngestedExample } from "./test/example-knowledge-base.js";

describe("tools/call with arguments that are not an object", () => {
  const ingested = useIngestedExample();

  it.each([
    ["a string", "Who can refund an invoice?"],
    ["a number", 42],
    ["an array", ["Who can refund an invoice?"]],
    ["null", null],
  ])(
    "issue 33: %s gets a short -32602 naming the shape arguments need, not a schema dump; the server keeps serving",
    async (shape, args) => {
      await using client = await connectClient({ retriever: ingested().knowledgeBase.retriever, store: ingested().knowledgeBase.store });
      const error = await client
        .request({ method: "tools/call", params: { name: "lookup_knowledge", arguments: args as never } }, CallToolResultSchema)
        .then(
          () => undefined,
          (caught: unknown) => caught as { code?: number; message?: string },
        );
      expect(error?.code).toBe(-32602);
      expect(error?.message).toContain(
        `tools/call "arguments" must be an object of named arguments, such as {"query": "..."}; got ${shape}.`,
      );
      expect(error?.message).not.toMatch(/expected|invalid_type|"path"/);
      const result = await client.callTool({ name: "lookup_knowledge", arguments: { query: "Who can refund an invoice?" } });
      expect(result.isError).toBeFalsy();
    },
  );
});

describe("requests whose params lack the field they name", () => {
  const ingested = useIngestedExample();

  it.each([
    ["tools/call", { arguments: {} }, 'tools/call "name" must be the name of a tool, a string; got none.'],
    ["tools/call", { name: 5, arguments: {} }, 'tools/call "name" must be the name of a tool, a string; got a number.'],
    ["resources/read", {}, 'resources/read "uri" must be a knowledge://source/<path> URI, a string; got none.'],
    [
      "resources/read",
      { uri: ["knowledge://source/billing/refunds.md"] },
      'resources/read "uri" must be a knowledge://source/<path> URI, a string; got an array.',
    ],
  ])(
    "issue 35 item 2: %s with %j gets one short -32602 sentence, its code once, not a -32603 schema dump",
    async (method, params, sentence) => {
      await using client = await connectClient({ retriever: ingested().knowledgeBase.retriever, store: ingested().knowledgeBase.store });
      const error = await client.request({ method, params } as never, CallToolResultSchema).then(
        () => undefined,
        (caught: unknown) => caught as { code?: number; message?: string },
      );
      expect(error).toMatchObject({ code: -32602, message: `MCP error -32602: Invalid params: ${sentence}` });
    },
  );
});
