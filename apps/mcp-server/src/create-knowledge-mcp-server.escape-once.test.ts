import { escapeKnowledgeText } from "@lookup-knowledge/agent-tool/format";
import { describe, expect, it } from "vitest";
import { connectClient, textOf } from "./test/connect-client.js";
import { useOneDocumentBase } from "./test/one-document-base.js";
import { evidenceContentOf, fetchMetaOf, lookupMetaOf } from "./test/result-meta.js";

// Characters escapeKnowledgeText changes: "&" and "<" (and an already escaped "&amp;", which
// a second escape would turn into "&amp;amp;"), in the title, a heading and the content.
const title = "Refunds & <credits> &amp; notes";
const body = "A refund & a credit note are issued when the invoice total is < 5 EUR &amp; paid.";
const document = ["---", `title: "${title}"`, "---", "", "# Q&A <billing>", "", body, ""].join("\n");

describe("evidence text through MCP is escaped exactly once", () => {
  const base = useOneDocumentBase("mcp-escape-once-", document);

  it("issue 13 review, issue 35 item 2: the text content and _meta carry each evidence string escaped once, never &amp;amp;", async () => {
    const query = "When is a refund or a credit note issued for an invoice?";
    const direct = await base.knowledgeBase().retriever.lookup(query);
    if (!direct.found) throw new Error("the lookup found nothing");
    const block = direct.contextPack.blocks[0];
    if (!block) throw new Error("no packed block");
    // The retriever hands over the document's own text: nothing is escaped before the MCP server.
    expect(block.title).toBe(title);
    expect(block.content).toContain(body);

    const knowledgeBase = base.knowledgeBase();
    await using client = await connectClient({ retriever: knowledgeBase.retriever, store: knowledgeBase.store });
    const result = await client.callTool({ name: "lookup_knowledge", arguments: { query } });
    const structured = lookupMetaOf(result);
    const evidence = structured.evidence[0];
    expect(evidence?.title).toBe("Refunds &amp; &lt;credits> &amp;amp; notes");
    expect(evidence?.title).toBe(escapeKnowledgeText(title, "line"));
    // The text content holds the same escaped title (in a double-quoted attribute) and the content escaped once.
    const text = textOf(result);
    const content = evidenceContentOf(text, evidence?.document_id);
    expect(content).toBe(escapeKnowledgeText(block.content, "content"));
    expect(content).toContain("A refund & a credit note are issued when the invoice total is &lt; 5 EUR &amp; paid.");
    expect(text).toContain(`title="${evidence?.title}"`);
    for (const rendered of [text, JSON.stringify(structured)]) {
      expect(rendered).not.toContain("&amp;amp;amp;");
      expect(rendered).not.toContain("&amp;lt;");
    }

    const fetched = await client.callTool({ name: "fetch_evidence", arguments: { document_id: evidence?.document_id } });
    const chunk = fetchMetaOf(fetched);
    expect(chunk.title).toBe(evidence?.title);
    expect(evidenceContentOf(textOf(fetched))).toContain("is &lt; 5 EUR &amp; paid.");
    expect(textOf(fetched)).toContain(`title="${evidence?.title}"`);
    expect(textOf(fetched)).not.toContain("&amp;lt;");
  });
});
