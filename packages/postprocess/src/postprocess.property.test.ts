import type { Candidate, L0Hints, SearchHit } from "@lookup-knowledge/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildEvidenceBlocks } from "./build-evidence-blocks.js";
import { dedupeCandidates } from "./dedupe-candidates.js";
import { normalizeHits } from "./normalize-hits.js";
import { packContext } from "./pack-context.js";
import { postprocessCandidates } from "./postprocess-candidates.js";
import { rerankCandidates } from "./rerank-candidates.js";

const words = ["refund", "webhook", "rate", "limit", "billing", "退款", "政策", "API", "retry", "invoice", "the", "and"];
const word = fc.constantFrom(...words);
const text = (maxLength: number) => fc.array(word, { minLength: 1, maxLength }).map((parts) => parts.join(" "));

/** Port hits over a few documents and chunk indexes, so duplicates and crowded documents are common. */
const hitArbitrary: fc.Arbitrary<SearchHit> = fc
  .record({
    docId: fc.constantFrom("a", "b", "c", "d"),
    chunkIndex: fc.integer({ min: 0, max: 4 }),
    score: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    content: text(80),
    title: fc.option(fc.constantFrom("Refunds", "Webhooks", "Rate limits", "退款政策"), { nil: undefined }),
    breadcrumb: fc.option(text(4), { nil: undefined }),
    category: fc.option(fc.constantFrom("billing", "api"), { nil: undefined }),
    source: fc.constantFrom("a.md", "b.md", "shared.md"),
  })
  .map(({ docId, chunkIndex, score, content, title, breadcrumb, category, source }) => {
    const metadata: Record<string, unknown> = { docId, chunkIndex, source, title, breadcrumb, category };
    return score === undefined ? { content, metadata } : { content, metadata, score };
  });

const candidatesArbitrary: fc.Arbitrary<Candidate[]> = fc
  .array(hitArbitrary, { maxLength: 40 })
  .map((hits) => normalizeHits(hits).candidates);

const hintsArbitrary: fc.Arbitrary<L0Hints> = fc.record({
  titles: fc.subarray(["Refunds", "Webhooks", "退款政策"]),
  keywords: fc.subarray(["rate limit", "refund", "退款", "retry"]),
  domains: fc.subarray(["billing", "api"]),
  entities: fc.subarray(["API", "Stripe"]),
  entries: fc.constant([{ id: "entry", source: "entry.md", matches: [] }]),
});

const optionsArbitrary = fc.record({
  query: text(6),
  hints: hintsArbitrary,
  maxChunksPerDocument: fc.integer({ min: 1, max: 4 }),
  returnN: fc.integer({ min: 1, max: 12 }),
});

/** A permutation of the candidates, driven by generated sort keys. */
const shuffledArbitrary = candidatesArbitrary.chain((candidates) =>
  fc.array(fc.integer(), { minLength: candidates.length, maxLength: candidates.length }).map((order) => ({
    candidates,
    shuffled: candidates
      .map((candidate, index) => ({ candidate, key: order[index] ?? 0, index }))
      .sort((x, y) => x.key - y.key || x.index - y.index)
      .map((entry) => entry.candidate),
  })),
);

describe("postprocess properties", () => {
  it("R15: dedup is by evidence key only: keys are unique and every input key is kept", () => {
    fc.assert(
      fc.property(candidatesArbitrary, (candidates) => {
        const deduped = dedupeCandidates(candidates);
        const keys = deduped.map((candidate) => candidate.evidenceKey);
        expect(new Set(keys).size).toBe(keys.length);
        expect(new Set(keys)).toEqual(new Set(candidates.map((candidate) => candidate.evidenceKey)));
      }),
    );
  });

  it("R15, R16, R17: every input key ends up exactly once: returned, capped or beyond return-n", () => {
    fc.assert(
      fc.property(candidatesArbitrary, optionsArbitrary, (candidates, options) => {
        const output = postprocessCandidates(candidates, options);
        const placed = [...output.ranked, ...output.droppedByCap, ...output.droppedByReturnN].map((item) => item.evidenceKey);
        expect(placed.length).toBe(new Set(placed).size);
        expect(new Set(placed)).toEqual(new Set(candidates.map((candidate) => candidate.evidenceKey)));
        expect(output.duplicatesMerged).toBe(candidates.length - placed.length);
      }),
    );
  });

  it("R16: no document has more blocks than maxChunksPerDocument", () => {
    fc.assert(
      fc.property(candidatesArbitrary, optionsArbitrary, (candidates, options) => {
        const output = postprocessCandidates(candidates, { ...options, returnN: 200 });
        const perDocument = new Map<string, number>();
        for (const block of output.evidenceBlocks) {
          const document = block.docId ?? block.evidenceKey;
          perDocument.set(document, (perDocument.get(document) ?? 0) + 1);
        }
        for (const count of perDocument.values()) expect(count).toBeLessThanOrEqual(options.maxChunksPerDocument);
      }),
    );
  });

  it("R17, R19: at most returnN blocks, ranked 1..n, and the trace covers exactly them", () => {
    fc.assert(
      fc.property(candidatesArbitrary, optionsArbitrary, (candidates, options) => {
        const output = postprocessCandidates(candidates, options);
        expect(output.evidenceBlocks.length).toBeLessThanOrEqual(options.returnN);
        expect(output.evidenceBlocks.map((block) => block.rank)).toEqual(output.evidenceBlocks.map((_, index) => index + 1));
        expect(output.rerankTrace.entries.map((entry) => entry.evidenceKey)).toEqual(
          output.evidenceBlocks.map((block) => block.evidenceKey),
        );
        const scores = output.ranked.map((candidate) => candidate.rankScore);
        expect(scores).toEqual([...scores].sort((x, y) => y - x));
      }),
    );
  });

  it("R18: same input, same output; a shuffled copy of the input gives the same output too", () => {
    fc.assert(
      fc.property(shuffledArbitrary, optionsArbitrary, ({ candidates, shuffled }, options) => {
        const first = postprocessCandidates(candidates, options);
        expect(postprocessCandidates(candidates, options)).toEqual(first);
        expect(postprocessCandidates(shuffled, options)).toEqual(first);
      }),
    );
  });

  it("R24, R25, R26: the pack stays within budget, keeps metadata whole and only shortens content", () => {
    fc.assert(
      fc.property(
        candidatesArbitrary,
        hintsArbitrary,
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 1, max: 400 }),
        (candidates, hints, budget, minBlockChars) => {
          const blocks = buildEvidenceBlocks(rerankCandidates(dedupeCandidates(candidates), { query: "refund", hints }), {
            retrievalLayer: "L0+L1",
          });
          const pack = packContext(blocks, { budget, minBlockChars });
          expect(pack.used).toBeLessThanOrEqual(budget);
          expect(pack.used).toBe(pack.blocks.reduce((sum, packed) => sum + packed.content.length, 0));
          const byKey = new Map(blocks.map((block) => [block.evidenceKey, block]));
          for (const packed of pack.blocks) {
            const original = byKey.get(packed.evidenceKey);
            if (!original) throw new Error(`unknown block ${packed.evidenceKey}`);
            expect(packed.source).toBe(original.source);
            expect(packed.title).toBe(original.title);
            expect(packed.breadcrumb).toBe(original.breadcrumb);
            expect(packed.hitReasons).toEqual(original.hitReasons);
            expect(packed.originalLength).toBe(original.content.length);
            if (packed.truncated) {
              expect(packed.content.endsWith("…")).toBe(true);
              expect(original.content.startsWith(packed.content.slice(0, -1))).toBe(true);
            } else {
              expect(packed.content).toBe(original.content);
            }
          }
          const accounted = [...pack.summary.included, ...pack.summary.omitted.map((omitted) => omitted.evidenceKey)];
          expect(accounted).toEqual(blocks.map((block) => block.evidenceKey));
        },
      ),
    );
  });
});
