import type { EvidenceBlock } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { packContext } from "./pack-context.js";
import { truncateContent } from "./truncate-content.js";

function block(evidenceKey: string, content: string, extra: Partial<EvidenceBlock> = {}): EvidenceBlock {
  return {
    evidenceKey,
    source: extra.source ?? `docs/${evidenceKey.split("#")[0] ?? evidenceKey}.md`,
    retrievalLayer: "L1",
    content,
    hitReasons: ["semantic match 0.80"],
    rankScore: 0.8,
    rank: 1,
    ...extra,
  };
}

const sentence = (count: number) =>
  Array.from({ length: count }, (_, index) => `Sentence number ${index + 1} explains a detail.`).join(" ");

describe("packContext", () => {
  it("R24: keeps evidence key, source, title, breadcrumb and hit reasons of every included block", () => {
    const blocks = [
      block("refunds#chunk-0", sentence(40), {
        title: "Refunds",
        breadcrumb: "Billing > Refunds",
        hitReasons: ["semantic match 0.82", 'title matches L0 hint "Refunds"'],
      }),
      block("shipping#chunk-3", "Short shipping note.", { title: "Shipping" }),
    ];
    const pack = packContext(blocks, { budget: 500 });
    expect(pack.blocks.map(({ content: _content, truncated: _truncated, allotment: _allotment, ...metadata }) => metadata)).toEqual([
      {
        evidenceKey: "refunds#chunk-0",
        source: "docs/refunds.md",
        title: "Refunds",
        breadcrumb: "Billing > Refunds",
        hitReasons: ["semantic match 0.82", 'title matches L0 hint "Refunds"'],
        originalLength: blocks[0]?.content.length,
      },
      {
        evidenceKey: "shipping#chunk-3",
        source: "docs/shipping.md",
        title: "Shipping",
        hitReasons: ["semantic match 0.80"],
        originalLength: 20,
      },
    ]);
  });

  it("R25: over budget, content is truncated with an ellipsis at a boundary, never the metadata", () => {
    const long = sentence(40);
    const pack = packContext([block("a#chunk-0", long, { title: "A very long title ".repeat(20) })], { budget: 300 });
    const [packed] = pack.blocks;
    expect(packed?.truncated).toBe(true);
    expect(packed?.title).toBe("A very long title ".repeat(20));
    expect(packed?.content.endsWith("detail.…")).toBe(true);
    expect(long.startsWith(packed?.content.slice(0, -1) ?? "x")).toBe(true);
    expect(packed?.content.length).toBeLessThanOrEqual(300);
    expect(packed?.content.length).toBeGreaterThan(225);
    expect(pack.used).toBe(packed?.content.length);
    expect(pack.summary.truncated).toEqual(["a#chunk-0"]);
  });

  it("R25: the summary lists included and omitted sources in rank order", () => {
    const blocks = [
      block("a#chunk-0", sentence(10), { source: "a.md" }),
      block("b#chunk-0", sentence(10), { source: "b.md" }),
      block("c#chunk-0", sentence(10), { source: "c.md" }),
      block("d#chunk-0", sentence(10), { source: "d.md" }),
    ];
    const pack = packContext(blocks, { budget: 400, minBlockChars: 160 });
    expect(pack.summary).toEqual({
      includedSources: ["a.md", "b.md"],
      omittedSources: ["c.md", "d.md"],
      included: ["a#chunk-0", "b#chunk-0"],
      omitted: [
        { evidenceKey: "c#chunk-0", source: "c.md", reason: "context budget" },
        { evidenceKey: "d#chunk-0", source: "d.md", reason: "context budget" },
      ],
      truncated: ["a#chunk-0", "b#chunk-0"],
    });
    expect(pack.used).toBeLessThanOrEqual(400);
  });

  it("R25: once a block's minimum does not fit, it and every block after it are omitted", () => {
    const blocks = [block("a#chunk-0", sentence(10)), block("b#chunk-0", sentence(10)), block("c#chunk-0", "tiny")];
    const pack = packContext(blocks, { budget: 250, minBlockChars: 160 });
    expect(pack.summary.included).toEqual(["a#chunk-0"]);
    expect(pack.summary.omitted.map((omitted) => omitted.evidenceKey)).toEqual(["b#chunk-0", "c#chunk-0"]);
  });

  it("R26: two chunks of one source both appear, identified and deduplicated by evidence key only", () => {
    const blocks = [
      block("guide#chunk-0", "First part of the guide.", { source: "guide.md" }),
      block("guide#chunk-1", "Second part of the guide.", { source: "guide.md" }),
      block("guide#chunk-0", "A repeat of the first chunk.", { source: "guide.md" }),
    ];
    const pack = packContext(blocks, { budget: 1000 });
    expect(pack.blocks.map((packed) => packed.evidenceKey)).toEqual(["guide#chunk-0", "guide#chunk-1"]);
    expect(pack.blocks.map((packed) => packed.content)).toEqual(["First part of the guide.", "Second part of the guide."]);
    expect(pack.summary.includedSources).toEqual(["guide.md"]);
    expect(pack.summary.omitted).toEqual([]);
  });

  it("R25: water-filling keeps short blocks whole and cuts long ones to an equal share", () => {
    const short = "Short answer.";
    const blocks = [block("a#chunk-0", sentence(30)), block("b#chunk-0", short), block("c#chunk-0", sentence(30))];
    const pack = packContext(blocks, { budget: 600 });
    const [a, b, c] = pack.blocks;
    expect(b).toMatchObject({ content: short, truncated: false });
    const share = Math.floor((600 - short.length) / 2);
    expect(a?.truncated && c?.truncated).toBe(true);
    expect(a?.content.length).toBeLessThanOrEqual(share);
    expect(c?.content.length).toBeLessThanOrEqual(share);
    expect(pack.used).toBeLessThanOrEqual(600);
  });

  it("R25: everything fits untouched under a large budget", () => {
    const blocks = [block("a#chunk-0", sentence(3)), block("b#chunk-0", sentence(2))];
    const pack = packContext(blocks, { budget: 10_000 });
    expect(pack.blocks.map((packed) => packed.content)).toEqual(blocks.map((original) => original.content));
    expect(pack.summary.truncated).toEqual([]);
    expect(pack.used).toBe(blocks[0]!.content.length + blocks[1]!.content.length);
  });

  it("cuts CJK text without spaces at a full stop or exactly at the share", () => {
    const cjk = "退款需要七个工作日完成。".repeat(30);
    const pack = packContext([block("zh#chunk-0", cjk)], { budget: 100, minBlockChars: 50 });
    const content = pack.blocks[0]?.content ?? "";
    expect(content.length).toBeLessThanOrEqual(100);
    expect(content.endsWith("。…")).toBe(true);
  });

  it("never splits a surrogate pair", () => {
    const emoji = "😀".repeat(200);
    const content = packContext([block("e#chunk-0", emoji)], { budget: 100, minBlockChars: 10 }).blocks[0]?.content ?? "";
    expect(content.length).toBeLessThanOrEqual(100);
    expect(content.slice(0, -1)).toBe("😀".repeat((content.length - 1) / 2));
  });

  it("refuses a negative budget", () => {
    expect(() => packContext([], { budget: -1 })).toThrow(/budget/);
  });
});

describe("packContext: a truncated block can be rebuilt from its whole content", () => {
  it("issue 13: truncateContent(content, allotment) gives back the packed content exactly", () => {
    const long = (key: string, words: number) =>
      block(`${key}#chunk-0`, Array.from({ length: words }, (_, index) => `word${index}${index % 9 === 8 ? "." : ""}`).join(" "));
    const blocks = [long("a", 300), long("b", 120), long("c", 40)];
    const pack = packContext(blocks, { budget: 1500 });
    const truncated = pack.blocks.filter((packed) => packed.truncated);
    expect(truncated.length).toBeGreaterThan(0);
    for (const packed of pack.blocks) {
      const whole = blocks.find((candidate) => candidate.evidenceKey === packed.evidenceKey)?.content ?? "";
      if (packed.truncated) expect(truncateContent(whole, packed.allotment as number)).toBe(packed.content);
      else {
        expect(packed.allotment).toBeUndefined();
        expect(packed.content).toBe(whole);
      }
    }
  });
});
