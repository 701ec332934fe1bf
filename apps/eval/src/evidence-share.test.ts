import { renderEvidenceContent } from "@lookup-knowledge/agent-tool/format";
import { createKnowledgeRetriever } from "@lookup-knowledge/agent-tool";
import { createScriptedSearchPort } from "@lookup-knowledge/search-port/testing";
import { describe, expect, it } from "vitest";
import { evidenceShare } from "./evidence-share.js";

describe("evidenceShare (issue 35 item 1)", () => {
  it("counts the UTF-8 bytes between each evidence tag line and its end line, against the whole content", () => {
    const content = ["Header line.", '<evidence document_id="a#chunk-0">', "退款 refund", "second line", "</evidence>", "tail"].join("\n");
    expect(evidenceShare(content)).toEqual({
      contentBytes: new TextEncoder().encode(content).length,
      evidenceBytes: new TextEncoder().encode("退款 refund\nsecond line").length,
      blocks: 1,
    });
  });

  it("counts nothing for a content without evidence, and refuses an element that is never closed", () => {
    expect(evidenceShare("No evidence was found.")).toEqual({ contentBytes: 22, evidenceBytes: 0, blocks: 0 });
    expect(() => evidenceShare('<evidence document_id="a#chunk-0">\ntext')).toThrow(/not closed \(element 1\)/);
  });

  it("reads the real rendered content: one element per packed block, holding exactly its content", async () => {
    const hits = [
      {
        content: "Refunds need the approval of a billing admin.",
        metadata: { docId: "billing/refunds", chunkIndex: 0, source: "billing/refunds.md" },
        score: 0.9,
      },
      {
        content: "Invoices are numbered in sequence.",
        metadata: { docId: "billing/invoices", chunkIndex: 0, source: "billing/invoices.md" },
        score: 0.7,
      },
    ];
    const result = await createKnowledgeRetriever({ searchPort: createScriptedSearchPort([hits]) }).lookup("refund approval");
    if (!result.found) throw new Error("expected evidence");
    const share = evidenceShare(renderEvidenceContent(result));
    expect(share.blocks).toBe(2);
    const contents = result.contextPack.blocks.map((block) => block.content).join("\n");
    expect(share.evidenceBytes).toBe(new TextEncoder().encode(contents).length - 1);
  });
});
