import { mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { lookupResultMetaSchema, resultMetaKey } from "@lookup-knowledge/mcp-server";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";
import { cliEnvironment, cliPath } from "./test/spawn-mcp-server.js";

const workspaceRoot = fileURLToPath(new URL("../../../", import.meta.url));
/** The placeholder the README blocks use for the clone's absolute path: the only text a reader replaces. */
const clonePlaceholder = "/path/to/lookup-knowledge";
const clients = { "Claude Desktop": "mcpServers", Cursor: "mcpServers", "VS Code": "servers" } as const;

interface ReadmeBlock {
  readme: string;
  /** The paragraph before the block, which names the clients it is for. */
  label: string;
  config: Record<string, Record<string, { type?: string; command: string; args?: string[]; env?: Record<string, string> }>>;
}

/** Every JSON block of a README that configures an MCP client, with the paragraph that introduces it. */
function clientBlocks(readme: string, text: string): ReadmeBlock[] {
  return [...text.matchAll(/([^\n]+(?:\n[^\n]+)*)\n\n```json\n(\{\n\s+"(?:mcpServers|servers)"[\s\S]*?)```/g)].map((match) => ({
    readme,
    label: (match[1] ?? "").replace(/\s+/g, " "),
    config: JSON.parse(match[2] as string) as ReadmeBlock["config"],
  }));
}

describe("the README's MCP client blocks, as pasted", () => {
  let clone: string;
  let elsewhere: string;
  let blocks: ReadmeBlock[];
  beforeAll(async () => {
    // A clone after `pnpm start`: its built command (the workspace's, linked) and the example
    // ingested into <clone>/.lookup-knowledge, as the demo does.
    clone = await mkdtemp(join(tmpdir(), "lookup-knowledge-clone-"));
    elsewhere = await mkdtemp(join(tmpdir(), "lookup-knowledge-client-cwd-"));
    await mkdir(join(clone, "apps", "cli"), { recursive: true });
    // The README names the bin, `apps/cli/dist/bundle/main.js`: the clone's `dist` is the real one.
    await symlink(dirname(dirname(cliPath)), join(clone, "apps", "cli", "dist"), "dir");
    const ingested = await runLookupKnowledge(
      clone,
      "--data",
      join(clone, ".lookup-knowledge"),
      "ingest",
      "--no-progress",
      exampleKnowledgeBase,
    );
    expect(ingested).toMatchObject({ code: 0 });
    blocks = [];
    for (const readme of ["README.md", join("apps", "mcp-server", "README.md")]) {
      blocks.push(...clientBlocks(readme, await readFile(join(workspaceRoot, readme), "utf8")));
    }
  }, 120_000);
  afterAll(async () => {
    await rm(clone, { recursive: true, force: true });
    await rm(elsewhere, { recursive: true, force: true });
  });

  it("issue 35 item 2: each README gives Claude Desktop, Cursor and VS Code a block in the client's own shape", () => {
    for (const readme of ["README.md", join("apps", "mcp-server", "README.md")]) {
      const own = blocks.filter((block) => block.readme === readme);
      for (const [client, key] of Object.entries(clients)) {
        const block = own.find((candidate) => candidate.label.includes(client));
        expect(block, `${readme}: a block for ${client}`).toBeDefined();
        expect(Object.keys(block?.config ?? {}), `${readme}: ${client}`).toEqual([key]);
        if (key === "servers") expect(block?.config.servers?.["lookup-knowledge"]?.type).toBe("stdio");
      }
    }
  });

  it("issue 35 item 2: each block starts the server from a clone with no file no step creates and no package from a registry, and the tool answers", async () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    for (const block of blocks) {
      const entry = Object.values(block.config)[0]?.["lookup-knowledge"];
      expect(entry, block.label).toBeDefined();
      const substitute = (value: string) => value.split(clonePlaceholder).join(clone);
      const command = substitute(entry?.command ?? "");
      const args = (entry?.args ?? []).map(substitute);
      // Nothing else to fill in, no settings file, and nothing fetched from a registry.
      expect(JSON.stringify([command, ...args]), block.label).not.toMatch(/\/path\/to|--config/);
      expect(command, block.label).not.toMatch(/^(npx|pnpm|bunx|yarn)$/);
      // A client starts the server in a folder of its own choosing, not the clone.
      const transport = new StdioClientTransport({
        command,
        args,
        cwd: elsewhere,
        env: cliEnvironment(entry?.env ?? {}),
        stderr: "pipe",
      });
      let stderr = "";
      transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      const client = new Client({ name: "readme-block-test", version: "1.0.0" });
      try {
        await client.connect(transport);
        expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("lookup_knowledge");
        const found = await client.callTool({
          name: "lookup_knowledge",
          arguments: { query: "Who can issue a refund for a paid invoice?" },
        });
        expect(lookupResultMetaSchema.parse(found._meta?.[resultMetaKey]).found, `${block.readme}: ${block.label}`).toBe(true);
        expect(JSON.stringify(found.content)).toContain('source=\\"billing/refunds.md\\"');
      } catch (error) {
        throw new Error(`${block.readme}, the block after "${block.label}": ${String(error)}; stderr: ${stderr}`);
      } finally {
        await client.close();
      }
      expect(stderr).toContain(`data ${join(clone, ".lookup-knowledge")}`);
    }
  }, 120_000);
});
