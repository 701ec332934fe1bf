import { readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { escapeKnowledgeText, renderEvidenceContent } from "@lookup-knowledge/agent-tool/format";
import type { LookupResult } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { connectClient, textOf } from "./test/connect-client.js";
import { useIngestedExample } from "./test/example-knowledge-base.js";
import { evidenceContentOf, fetchMetaOf, lookupMetaOf } from "./test/result-meta.js";

const answerable = "Who can issue a refund for a paid invoice?";
const outOfScope = "What is the boiling point of ethanol?";

describe("createKnowledgeMcpServer (in process, with the SDK's client)", () => {
  const ingested = useIngestedExample();

  const options = () => ({ retriever: ingested().knowledgeBase.retriever, store: ingested().knowledgeBase.store });

  it("issue 12, issue 35 item 2: lists lookup_knowledge and fetch_evidence, read-only, with input schemas and no output schema", async () => {
    await using client = await connectClient(options());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["lookup_knowledge", "fetch_evidence"]);
    const [lookup, fetch] = tools;
    expect(lookup?.annotations?.readOnlyHint).toBe(true);
    expect(fetch?.annotations?.readOnlyHint).toBe(true);
    expect(lookup?.inputSchema).toMatchObject({ type: "object", required: ["query"], additionalProperties: false });
    expect(Object.keys(lookup?.inputSchema.properties ?? {})).toEqual(["query"]);
    // No outputSchema: a client that sees structured content hands the model that alone (README).
    expect(lookup?.outputSchema).toBeUndefined();
    expect(fetch?.outputSchema).toBeUndefined();
    expect(fetch?.inputSchema).toMatchObject({ required: ["document_id"] });
    expect(client.getServerVersion()?.name).toBe("lookup-knowledge");
  });

  it("issue 12, issue 35 item 2: a lookup returns the LangChain tool's exact text, and the blocks' ids, sources and scores in _meta", async () => {
    await using client = await connectClient(options());
    await client.listTools();
    const result = await client.callTool({ name: "lookup_knowledge", arguments: { query: answerable } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toBeUndefined();
    const structured = lookupMetaOf(result);
    expect(structured).toMatchObject({ found: true, evidenceStatus: "evidence" });
    expect(structured.evidence.length).toBeGreaterThan(0);
    const first = structured.evidence[0];
    expect(first?.source).toBe("billing/refunds.md");
    expect(first?.document_id).toMatch(/#chunk-\d+$/);
    expect(first?.score).toBeGreaterThan(0);
    expect(first?.rank).toBe(1);
    expect(structured.contextBudget.used).toBeGreaterThan(0);
    expect(["high", "medium", "low"]).toContain(structured.relevance);
    // The text is what the LangChain tool gives the model for the same lookup, fenced the same way.
    const direct = await ingested().knowledgeBase.retriever.lookup(answerable);
    expect(textOf(result)).toBe(renderEvidenceContent(direct));
    expect(textOf(result)).toContain(`<evidence document_id="${first?.document_id}"`);
    expect(structured.evidence.map((block) => block.document_id)).toEqual(
      direct.found ? direct.contextPack.blocks.map((block) => block.evidenceKey) : [],
    );
  });

  it("issue 12: an out-of-scope question is an explicit no-evidence result, not an error", async () => {
    await using client = await connectClient(options());
    const result = await client.callTool({ name: "lookup_knowledge", arguments: { query: outOfScope } });
    expect(result.isError).toBeFalsy();
    const structured = lookupMetaOf(result);
    expect(structured).toMatchObject({ found: false, evidenceStatus: "no_evidence", relevance: "none", evidence: [] });
    expect(textOf(result)).toMatch(/no evidence/i);
    expect(textOf(result)).not.toContain("<evidence");
  });

  it("issue 12: bad input is isError with one sentence naming the problem, never a stack", async () => {
    await using client = await connectClient(options());
    const call = async (args: Record<string, unknown>) => {
      const result = await client.callTool({ name: "lookup_knowledge", arguments: args });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
      expect(text.split("\n")).toHaveLength(1);
      return text;
    };
    expect(await call({ query: "   " })).toMatch(/^query must contain text\. Call lookup_knowledge again with only these arguments: /);
    expect(await call({})).toMatch(/^query is missing\./);
    expect(await call({ query: 42 })).toMatch(/^query must be a string\./);
    expect(await call({ query: "refund", extra: 1, filter: {} })).toMatch(/^Unknown arguments "extra", "filter"\./);
    expect(await call({ query: "x".repeat(8001) })).toMatch(/^query is too long \(8001 characters; at most 8000\)\./);
    expect(await call({ query: "refund", pad: "y".repeat(70_000) })).toMatch(/^The arguments are too large \(\d+ bytes; at most 65536\)\./);
    const unknownTool = await client.callTool({ name: "nope", arguments: {} }).catch((error: Error) => error);
    expect(String(unknownTool)).toMatch(/Unknown tool "nope": this server has lookup_knowledge and fetch_evidence/);
  });

  it('issue 34: a protocol error\'s message carries the code once (no "MCP error -32602: MCP error -32602:")', async () => {
    await using client = await connectClient(options());
    const unknownTool = await client.callTool({ name: "nope", arguments: {} }).catch((error: Error & { code?: number }) => error);
    expect(unknownTool).toMatchObject({
      code: -32602,
      message: 'MCP error -32602: Unknown tool "nope": this server has lookup_knowledge and fetch_evidence.',
    });
    const badCursor = await client.listResources({ cursor: "-3" }).catch((error: Error) => error);
    expect(badCursor).toMatchObject({
      code: -32602,
      message: "MCP error -32602: Invalid cursor: pass the nextCursor of the previous page.",
    });
  });

  it("issue 12: a caller filter is taken only when the settings allow it, and the fixed filter always holds", async () => {
    await using open = await connectClient({ ...options(), settings: { callerFilter: true } });
    const { tools } = await open.listTools();
    expect(Object.keys(tools[0]?.inputSchema.properties ?? {})).toEqual(["query", "filter"]);
    const billing = await open.callTool({
      name: "lookup_knowledge",
      arguments: { query: answerable, filter: { category: { $eq: "billing" } } },
    });
    const billingSources = lookupMetaOf(billing).evidence.map((block) => block.source);
    expect(billingSources.length).toBeGreaterThan(0);
    expect(billingSources.every((source) => /^(zh\/)?billing\//.test(source))).toBe(true);
    const security = await open.callTool({
      name: "lookup_knowledge",
      arguments: { query: answerable, filter: { category: { $eq: "security" } } },
    });
    const securitySources = lookupMetaOf(security).evidence.map((block) => block.source);
    expect(securitySources.some((source) => source.includes("billing/"))).toBe(false);
    const bad = await open.callTool({ name: "lookup_knowledge", arguments: { query: answerable, filter: { category: { $like: "x" } } } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/^Invalid metadata filter at category/);

    await using tenant = await connectClient({ ...options(), settings: { filter: { category: { $eq: "security" } }, callerFilter: true } });
    const both = await tenant.callTool({
      name: "lookup_knowledge",
      arguments: { query: answerable, filter: { category: { $eq: "billing" } } },
    });
    // Both hold: no chunk is in both categories, so there is no evidence.
    expect(lookupMetaOf(both).found).toBe(false);
  });

  it("issue 12: fetch_evidence returns the whole chunk and its neighbours' keys; an unknown id is a clear tool error", async () => {
    await using client = await connectClient(options());
    const lookup = await client.callTool({ name: "lookup_knowledge", arguments: { query: answerable } });
    const first = lookupMetaOf(lookup).evidence[0];
    const shown = evidenceContentOf(textOf(lookup), first?.document_id) ?? "";
    const fetched = await client.callTool({ name: "fetch_evidence", arguments: { document_id: first?.document_id } });
    expect(fetched.isError).toBeFalsy();
    expect(fetched.structuredContent).toBeUndefined();
    const chunk = { ...fetchMetaOf(fetched), content: evidenceContentOf(textOf(fetched)) ?? "" };
    expect(chunk.document_id).toBe(first?.document_id);
    expect(chunk.source).toBe("billing/refunds.md");
    expect(chunk.content.length).toBeGreaterThanOrEqual(shown.length);
    const docId = chunk.document_id.replace(/#chunk-\d+$/, "");
    if (chunk.chunkIndex > 0) expect(chunk.previous).toBe(`${docId}#chunk-${chunk.chunkIndex - 1}`);
    else expect(chunk.previous).toBeUndefined();
    const [records] = [
      await ingested().knowledgeBase.store.localIndex?.fetchRecords([chunk.document_id, `${docId}#chunk-${chunk.chunkIndex + 1}`]),
    ];
    expect(chunk.content).toBe(records?.[0]?.content);
    expect(chunk.next).toBe(records?.[1]?.id);
    expect(textOf(fetched)).toContain(`<evidence document_id="${chunk.document_id}"`);

    const first0 = await client.callTool({ name: "fetch_evidence", arguments: { document_id: `${docId}#chunk-0` } });
    expect(fetchMetaOf(first0).previous).toBeUndefined();

    for (const document_id of ["billing/nothing#chunk-0", "not a key", `${docId}#chunk-999`]) {
      const unknown = await client.callTool({ name: "fetch_evidence", arguments: { document_id } });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toMatch(/^Unknown document_id ".*": pass a document_id from a lookup_knowledge result/);
    }
    const missing = await client.callTool({ name: "fetch_evidence", arguments: {} });
    expect(textOf(missing)).toMatch(/^document_id is missing\. Call fetch_evidence again with only these arguments: /);
  });

  it("issue 12: under a fixed filter, fetch_evidence and the resources hide what the filter excludes", async () => {
    await using client = await connectClient({ ...options(), settings: { filter: { category: { $eq: "security" } } } });
    const billingChunk = await client.callTool({ name: "fetch_evidence", arguments: { document_id: "billing/refunds#chunk-0" } });
    expect(billingChunk.isError).toBe(true);
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((resource) => resource.name.includes("security/"))).toBe(true);
    await expect(client.readResource({ uri: "knowledge://source/billing/refunds.md" })).rejects.toThrow(/No source document has the URI/);
  });

  it("issue 12: lists each source document as knowledge://source/<path> with its title, and reads it", async () => {
    await using client = await connectClient(options());
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(ingested().knowledgeBase.documents);
    const refunds = resources.find((resource) => resource.name === "billing/refunds.md");
    expect(refunds).toMatchObject({ uri: "knowledge://source/billing/refunds.md", title: "Refunds", mimeType: "text/markdown" });
    const read = await client.readResource({ uri: "knowledge://source/billing/refunds.md" });
    expect(read.contents[0]).toMatchObject({ uri: "knowledge://source/billing/refunds.md", mimeType: "text/markdown" });
    expect((read.contents[0] as { text: string }).text).toMatch(/^---\ntitle: Refunds/);
    await expect(client.readResource({ uri: "knowledge://source/../../etc/passwd" })).rejects.toThrow(/No source document has the URI/);
  });

  it("issue 12: a source changed since the ingest, or turned into a link out of the folder, is refused", async () => {
    await using client = await connectClient(options());
    const invoices = join(ingested().root, "billing", "invoices.md");
    const original = await readFile(invoices, "utf8");
    await writeFile(invoices, `${original}\nAn edit after the ingest.\n`);
    try {
      await expect(client.readResource({ uri: "knowledge://source/billing/invoices.md" })).rejects.toThrow(
        /billing\/invoices\.md changed since it was ingested: run lookup-knowledge ingest again/,
      );
    } finally {
      await writeFile(invoices, original);
    }
    const outside = join(ingested().root, "..", "outside.md");
    await writeFile(outside, original);
    await rm(invoices);
    await symlink(outside, invoices);
    await expect(client.readResource({ uri: "knowledge://source/billing/invoices.md" })).rejects.toThrow(
      /is not inside the ingested folder/,
    );
    await rm(invoices);
    await writeFile(invoices, original);
    expect((await client.readResource({ uri: "knowledge://source/billing/invoices.md" })).contents).toHaveLength(1);
  });

  it("issue 12: resources are listed in pages, each cursor leading to the next", async () => {
    await using client = await connectClient({ ...options(), settings: { resourcesPerPage: 10 } });
    const uris: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      expect(page.resources.length).toBeLessThanOrEqual(10);
      uris.push(...page.resources.map((resource) => resource.uri));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(Math.ceil(ingested().knowledgeBase.documents / 10));
    expect(new Set(uris).size).toBe(ingested().knowledgeBase.documents);
    await expect(client.listResources({ cursor: "-3" })).rejects.toThrow(/Invalid cursor/);
  });

  it("issue 12: a store that cannot read chunks back offers lookup_knowledge only", async () => {
    const port = ingested().knowledgeBase.store.port;
    const searchOnly = { search: port.search.bind(port) };
    await using client = await connectClient({ ...options(), store: { port: searchOnly, stateDirectory: ingested().dataDirectory } });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["lookup_knowledge"]);
    await expect(client.callTool({ name: "fetch_evidence", arguments: { document_id: "billing/refunds#chunk-0" } })).rejects.toThrow(
      /Unknown tool "fetch_evidence": this server has lookup_knowledge\./,
    );
  });

  it("issue 12: a query of only invisible characters is refused as blank, with the usage", async () => {
    await using client = await connectClient(options());
    const result = await client.callTool({ name: "lookup_knowledge", arguments: { query: "\u200b\u200d\u0007" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^query must contain text \(it holds only spaces, control or invisible characters\)\. Call lookup_knowledge again with only these arguments: /,
    );
  });

  it("issue 12: every lookup through MCP leaves its trace record", async () => {
    await using client = await connectClient(options());
    const before = ingested().traces.size;
    await client.callTool({
      name: "lookup_knowledge",
      arguments: { query: "How long are payouts paused after the payout bank account is changed?" },
    });
    await client.callTool({ name: "lookup_knowledge", arguments: { query: outOfScope } });
    await ingested().knowledgeBase.retriever.flushTraces();
    const added = ingested().traces.list().slice(before);
    expect(added.map((record) => [record.query, record.found])).toEqual([
      ["How long are payouts paused after the payout bank account is changed?", true],
      [outOfScope, false],
    ]);
    expect(added.every((record) => record.toolName === "lookup_knowledge")).toBe(true);
  });

  it("issue 12, issue 35 item 2: the text and _meta follow the result: the packed blocks, in rank order", async () => {
    const result: LookupResult = await ingested().knowledgeBase.retriever.lookup(answerable);
    expect(result.found).toBe(true);
    if (!result.found) return;
    await using client = await connectClient(options());
    const called = await client.callTool({ name: "lookup_knowledge", arguments: { query: answerable } });
    const structured = lookupMetaOf(called);
    expect(structured.evidence.map((block) => block.document_id)).toEqual(result.contextPack.blocks.map((block) => block.evidenceKey));
    expect(structured.evidence.map((block) => evidenceContentOf(textOf(called), block.document_id))).toEqual(
      result.contextPack.blocks.map((block) => escapeKnowledgeText(block.content, "content")),
    );
    expect(structured.completeness).toEqual(result.completenessHint.status);
    expect(structured.contextBudget.used).toBe(result.contextPack.used);
  });
});
