import { createScriptedSearchPort } from "@lookup-knowledge/search-port/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createKnowledgeRetriever } from "./create-knowledge-retriever.js";
import { renderEvidenceContent } from "./render-evidence-content.js";
import { hit } from "./test/fixtures.js";
import { evidenceToken, readEvidenceFences } from "./test/read-evidence-fences.js";

// Pieces of tags, their look-alikes (fullwidth, small forms), format characters (zero-width,
// soft hyphen, bidi controls), every kind of line break, quotes and plain words.
const pieces = [
  "<",
  "</",
  "< /",
  ">",
  "/",
  "evidence",
  "EVIDENCE",
  "Evi",
  "dence",
  "\uff45\uff56\uff49\uff44\uff45\uff4e\uff43\uff45",
  "\uff1c",
  "\ufe64",
  "\uff0f",
  "\uff1e",
  "\ufe65",
  "\u200b",
  "\u200d",
  "\u2060",
  "\ufeff",
  "\u00ad",
  "\u202e",
  "\u202c",
  "\u2066",
  "\u2069",
  "\u200f",
  "\n",
  "\r",
  "\r\n",
  "\u2028",
  "\u2029",
  "\u0085",
  "\u000b",
  "\u000c",
  "\t",
  " ",
  '"',
  "\uff02",
  "'",
  "&",
  "&lt;",
  "=",
  "SYSTEM:",
  "document_id=",
  "Approved.",
  "refund",
  "#chunk-0",
  "\u0000",
  "\u001b[2J",
];
const adversarial = fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(""));

const hitArbitrary = fc
  .record({
    path: adversarial,
    chunkIndex: fc.integer({ min: 0, max: 2 }),
    title: adversarial,
    headings: fc.array(adversarial, { maxLength: 3 }),
    content: adversarial,
    score: fc.double({ min: 0.3, max: 1, noNaN: true }),
  })
  .map(({ path, chunkIndex, title, headings, content, score }) =>
    hit(`docs/${path}`, chunkIndex, score, {
      source: `docs/${path}.md`,
      title,
      breadcrumb: [title, ...headings].join(" > "),
      content: `${content} ${"filler ".repeat(20)}${content}`,
    }),
  );

describe("renderEvidenceContent on adversarial documents", () => {
  it("R24, R25: no <evidence or </evidence token and no document line outside the fences, after NFKC and without format characters", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hitArbitrary, { minLength: 0, maxLength: 6 }), fc.integer({ min: 100, max: 600 }), async (hits, budget) => {
        const retriever = createKnowledgeRetriever({
          searchPort: createScriptedSearchPort([hits, hits]),
          config: { "rag.context-budget": budget, "rag.return-n": 6 },
        });
        const result = await retriever.lookup("refund approval");
        const content = renderEvidenceContent(result);
        const fences = readEvidenceFences(content);

        expect(fences.strayTokens).toEqual([]);
        for (const inside of fences.insides) expect(inside.join("\n")).not.toMatch(evidenceToken);
        if (!result.found) {
          expect(fences.tags).toEqual([]);
          expect(fences.outside).toHaveLength(2);
          return;
        }
        const { blocks, summary } = result.contextPack;
        expect(fences.tags).toHaveLength(blocks.length);
        expect(fences.insides).toHaveLength(blocks.length);
        // Outside the fences only the content's own lines: the header with the instruction, the
        // note of low relevance, a blank line before each element, and the list of blocks left out;
        // none holds a line break of a document, a setting's name or a score.
        const expected = 1 + (result.relevanceLevel === "low" ? 1 : 0) + blocks.length + (summary.omitted.length > 0 ? 2 : 0);
        expect(fences.outside).toHaveLength(expected);
        for (const line of fences.outside) {
          expect(line).toMatch(
            /^(\d+ blocks? of evidence, quoted from documents: |Note: |More evidence was found than fits; left out: |$)/u,
          );
          expect(line).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
          expect(line).not.toMatch(/rag\.|completeness|relevance/u);
        }
        for (const tag of fences.tags) expect(tag).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
      }),
      { numRuns: 300 },
    );
  });
});
