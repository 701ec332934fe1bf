import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import { openLocalSearchPort, type LocalSearchPort } from "@lookup-knowledge/search-port/local";
import { buildToolInvocationRecord } from "@lookup-knowledge/trace-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";

// A small knowledge base written for this test, searched through the real local port.
const documents: Array<[docId: string, title: string, content: string]> = [
  ["webhooks", "Webhook signatures", "Every webhook request carries a signature header computed with the endpoint's signing secret; rotate the secret from the developer settings page."],
  ["exports", "Data exports", "Workspace owners can export all projects as a ZIP archive of JSON files from the administration console."],
  ["sso", "Single sign-on", "SAML single sign-on is configured per workspace: upload the identity provider metadata and map the email attribute."],
];

let directory: string;
let port: LocalSearchPort;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "retriever-answerability-"));
  const writer = await openLocalSearchPort({ directory, mode: "write", embeddings: createOfflineEmbeddings() });
  await writer.upsert(documents.map(([docId, title, content]) => ({ id: `${docId}#chunk-0`, content, metadata: { docId, chunkIndex: 0, title, source: `${docId}.md` } })));
  await writer.commit();
  await writer.close();
  // No minimum-evidence cut, so an out-of-scope question still gets hits the gate must judge.
  port = await openLocalSearchPort({ directory, embeddings: createOfflineEmbeddings(), minScore: 0 });
});

afterAll(async () => {
  await port.close();
  rmSync(directory, { recursive: true, force: true });
});

describe("the gate reads the local port's answerability score", () => {
  it("R9: an answerable question is found, and its attempt names the model and the signals behind its top score", async () => {
    const retriever = createKnowledgeRetriever({ searchPort: port });
    const result = await retriever.lookup("How do I rotate the webhook signing secret?");
    expect(result.found).toBe(true);
    const [attempt] = result.retrievalTrace.attempts;
    expect(attempt?.outcome).toBe("usable");
    expect(attempt?.answerability?.model).toMatch(/^answerability-logistic@\d+$/);
    expect(attempt?.answerability?.score).toBe(attempt?.topScore);
    expect(attempt?.answerability?.signals).toMatchObject({ lexical: expect.any(Number), coverage: expect.any(Number), margin: expect.any(Number) });
  });

  it("R11: an out-of-scope question is refused as low quality, and the trace record keeps the signals that judged it", async () => {
    const retriever = createKnowledgeRetriever({ searchPort: port });
    const result = await retriever.lookup("Which settings page shows the monthly electricity bill of the office?");
    expect(result.found).toBe(false);
    const [attempt] = result.retrievalTrace.attempts;
    expect(attempt?.outcome).toBe("low_quality");
    expect(attempt?.answerability?.score).toBeLessThan(retriever.config.referenceThreshold);
    const record = buildToolInvocationRecord({ result, toolName: "lookup_knowledge", startedAt: new Date(), durationMs: 1 });
    expect(record.retrievalDetails.attempts[0]?.answerability).toEqual(attempt?.answerability);
  });
});
