import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { explainLookup } from "@lookup-knowledge/agent-tool";
import { documentIdOf, evidenceKeyOf } from "@lookup-knowledge/agent-tool/format";
import { ingestIntoLocalIndex } from "@lookup-knowledge/agent-tool/local";
import { openKnowledgeBase, type KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, textOf } from "./test/connect-client.js";
import { fetchMetaOf, lookupMetaOf } from "./test/result-meta.js";

// Issue 33: 15 of 28 ids a lookup returned on a hostile base could not be fetched: the ids were
// escaped like other text (runs of spaces collapsed, quotes changed, format characters dropped).
const names = [
  "runs  of   spaces",
  'say "hi"',
  "full\uFF02width\uFF02quotes",
  "zero\u200Bwidth",
  "bidi\u202Eoverride",
  "soft\u00ADhyphen",
  "amp&amp;lt;",
  "percent%41",
  "tab\there",
  "less\uFF1Cthan",
];
const words = ["walrus", "heron", "lynx", "marten", "osprey", "bison", "ibex", "okapi", "tapir", "quokka"];

describe("document ids through MCP, on a base of hostile file names", () => {
  let folder: string;
  let knowledgeBase: KnowledgeBase;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "mcp-ids-"));
    await mkdir(join(folder, "docs"));
    for (const [index, name] of names.entries()) {
      const word = words[index] as string;
      await writeFile(join(folder, "docs", `${name}.md`), `# Page ${index}\n\nThe ${word} policy explains how the ${word} team works.\n`);
    }
    await ingestIntoLocalIndex({ root: join(folder, "docs"), dataDirectory: join(folder, "data") });
    knowledgeBase = await openKnowledgeBase({ dataDirectory: join(folder, "data"), onWarning: () => undefined });
  }, 60_000);
  afterAll(async () => {
    await knowledgeBase?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it("every document_id a lookup shows, in its text and its _meta, is fetched back by fetch_evidence and names a block of the artifact", async () => {
    await using client = await connectClient({ retriever: knowledgeBase.retriever, store: knowledgeBase.store });
    const fetchedSources = new Set<string>();
    for (const word of words) {
      const query = `How does the ${word} team work?`;
      const result = await client.callTool({ name: "lookup_knowledge", arguments: { query } });
      const structured = lookupMetaOf(result);
      expect(structured.found).toBe(true);
      const fromText = [...textOf(result).matchAll(/document_id="([^"]*)"/g)].map((match) => match[1] as string);
      expect(fromText).toEqual(structured.evidence.map((block) => block.document_id));
      // The artifact a LangChain tool returns is the lookup result: each id names one of its blocks.
      const artifact = await knowledgeBase.retriever.lookup(query);
      const keys = new Set(artifact.found ? artifact.evidenceBlocks.map((block) => block.evidenceKey) : []);
      for (const id of fromText) {
        expect(keys.has(evidenceKeyOf(id) as string)).toBe(true);
        const fetched = await client.callTool({ name: "fetch_evidence", arguments: { document_id: id } });
        expect(fetched.isError, textOf(fetched)).toBeFalsy();
        const chunk = fetchMetaOf(fetched);
        expect(chunk.document_id).toBe(id);
        fetchedSources.add(chunk.source);
      }
    }
    // Every hostile name was among the blocks, and came back.
    expect(fetchedSources.size).toBe(names.length);
  });

  it("a raw evidence key (as the CLI and LangChain documents show it) is fetched as itself, and explain resolves a cited id", async () => {
    await using client = await connectClient({ retriever: knowledgeBase.retriever, store: knowledgeBase.store });
    const query = "How does the walrus team work?";
    const artifact = await knowledgeBase.retriever.lookup(query);
    const block = artifact.found ? artifact.evidenceBlocks.find((candidate) => candidate.evidenceKey.startsWith("runs  of")) : undefined;
    expect(block).toBeDefined();
    const key = block?.evidenceKey as string;
    const raw = await client.callTool({ name: "fetch_evidence", arguments: { document_id: key } });
    expect(raw.isError, textOf(raw)).toBeFalsy();
    expect(fetchMetaOf(raw).document_id).toBe(documentIdOf(key));
    // A raw key that only looks encoded is not read as another document's ("percent%41" is not "percentA").
    const percent = await client.callTool({ name: "fetch_evidence", arguments: { document_id: "percent%41#chunk-0" } });
    expect(percent.isError, textOf(percent)).toBeFalsy();
    const explanation = await explainLookup(knowledgeBase, query, { expected: documentIdOf(key) });
    expect(explanation.expected).toMatchObject({ kind: "chunk", inIndex: true });
  });

  it("issue 33: resources/list names each hostile path escaped as other knowledge text, and its URI reads the document", async () => {
    await using client = await connectClient({ retriever: knowledgeBase.retriever, store: knowledgeBase.store });
    const { resources } = await client.listResources();
    expect(resources).toHaveLength(names.length);
    for (const resource of resources) {
      expect(resource.name).not.toMatch(/[<\uFF1C\p{Cc}\p{Cf}]/u);
      expect(resource.name).not.toMatch(/\s{2}/u);
      const read = await client.readResource({ uri: resource.uri });
      const [first] = read.contents;
      expect(first !== undefined && "text" in first ? first.text : "").toMatch(/^# Page \d/);
    }
    expect(resources.map((resource) => resource.name)).toContain("less&lt;than.md");
  });
});
