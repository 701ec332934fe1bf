import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ingestIntoLocalIndex } from "@lookup-knowledge/agent-tool/local";
import { openKnowledgeBase, type KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectClient, textOf } from "./test/connect-client.js";
import { lookupMetaOf } from "./test/result-meta.js";
import { exampleKnowledgeBase } from "./test/example-knowledge-base.js";

// Issue 33, item 2: a server whose fixed filter is one tenant (here the security pages)
// answers exactly as a server over that tenant's pages alone: no hint, fallback reason, score
// or signal tells whether another tenant holds a page.

const tenant = { category: "security" };
const tenantFolders = ["security", "zh/security"];
// Other tenants' titles and words (billing, API), the tenant's own, and mixes of both.
const queries = [
  "Refunds",
  "refund window for a paid invoice",
  "Rate limits",
  "API keys rotation",
  "退款",
  "Audit log retention",
  "Who can change roles and permissions?",
  "audit log of refunds",
  "单点登录 退款",
  "SSO SAML API keys",
];

let folder: string;
let everyone: KnowledgeBase;
let tenantOnly: KnowledgeBase;

async function ingestAndOpen(root: string, name: string): Promise<KnowledgeBase> {
  const dataDirectory = join(folder, name);
  await ingestIntoLocalIndex({ root, dataDirectory });
  return openKnowledgeBase({ dataDirectory, onWarning: () => undefined });
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "mcp-tenants-"));
  everyone = await ingestAndOpen(exampleKnowledgeBase, "everyone");
  const root = join(folder, "tenant-docs");
  for (const tenantFolder of tenantFolders)
    await cp(join(exampleKnowledgeBase, tenantFolder), join(root, tenantFolder), { recursive: true });
  tenantOnly = await ingestAndOpen(root, "tenant-only");
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([everyone?.close(), tenantOnly?.close()]);
  await rm(folder, { recursive: true, force: true });
});

describe("one tenant's MCP server", () => {
  it("R12, issue 33: _meta, text and resources are the same with other tenants' pages present or absent", async () => {
    const serverOf = (knowledgeBase: KnowledgeBase) =>
      connectClient({ retriever: knowledgeBase.retriever, store: knowledgeBase.store, settings: { filter: tenant } });
    await using withOthers = await serverOf(everyone);
    await using alone = await serverOf(tenantOnly);
    const withoutTimes = (value: unknown) =>
      JSON.parse(JSON.stringify(value), (key, inner: unknown) => (/Ms$/u.test(key) ? undefined : inner));
    let found = 0;
    for (const query of queries) {
      const [left, right] = (await Promise.all(
        [withOthers, alone].map((client) => client.callTool({ name: "lookup_knowledge", arguments: { query } })),
      )) as [Awaited<ReturnType<typeof alone.callTool>>, Awaited<ReturnType<typeof alone.callTool>>];
      expect(withoutTimes(left._meta), query).toEqual(withoutTimes(right._meta));
      expect(textOf(left), query).toBe(textOf(right));
      if (lookupMetaOf(left).found) found += 1;
    }
    // The tenant's own questions are answered, so the comparison is not of empty answers only.
    expect(found).toBeGreaterThanOrEqual(3);
    const [leftResources, rightResources] = await Promise.all([withOthers.listResources(), alone.listResources()]);
    expect(leftResources).toEqual(rightResources);
  });
});
