import { tmpdir } from "node:os";
import { mcpServerSettingDefaults, mcpServerSettingNames } from "@lookup-knowledge/mcp-server";
import { describe, expect, it } from "vitest";
import { runLookupKnowledge } from "./test/run-lookup-knowledge.js";

describe("lookup-knowledge mcp --help", () => {
  it("issue 35 item 2: names the bearer-token variable and every setting of the mcp object, with its default", async () => {
    const { code, stdout } = await runLookupKnowledge(tmpdir(), "mcp", "--help");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ {2}LOOKUP_KNOWLEDGE_MCP_TOKEN +a bearer token/m);
    expect(stdout).toContain("(--token is refused)");
    expect(stdout).toMatch(/"mcp" object of lookup-knowledge\.config\.json/);
    // The server's own list: a setting added there and not here fails this test.
    expect(mcpServerSettingNames.length).toBeGreaterThanOrEqual(9);
    for (const name of mcpServerSettingNames) {
      const line = stdout.split("\n").find((candidate) => candidate.startsWith(`  ${name} `));
      expect(line, `mcp --help names the setting ${name}`).toBeDefined();
      if (name in mcpServerSettingDefaults) expect(line, name).toContain(`(default ${String(mcpServerSettingDefaults[name])})`);
    }
    // The options keep their defaults in view, and the examples still end the help.
    expect(stdout).toMatch(/--host <address> +with --http: the address to bind \(default 127\.0\.0\.1/);
    expect(stdout).toMatch(/--port <n> +with --http: the port \(default 3333/);
    expect(stdout.trimEnd()).toMatch(/Examples:\n {2}lookup-knowledge mcp\n {2}lookup-knowledge mcp --http --port 3333$/);
  });
});
