import type { ContextPack, EvidenceBlock, PackedBlock } from "@lookup-knowledge/core";
import { requireWholeNumber } from "./internal/numbers.js";
import { truncateContent } from "./truncate-content.js";

/**
 * Shares `budget` characters between blocks of the given lengths ("water-filling"): short
 * blocks keep their whole content, the rest get an equal share of what is left.
 */
function allot(lengths: readonly number[], budget: number): number[] {
  const order = lengths.map((length, index) => ({ length, index })).sort((a, b) => a.length - b.length || a.index - b.index);
  const allotments = new Array<number>(lengths.length).fill(0);
  let remaining = budget;
  let left = lengths.length;
  for (const { length, index } of order) {
    const share = Math.floor(remaining / left);
    const given = Math.min(length, share);
    allotments[index] = given;
    remaining -= given;
    left -= 1;
  }
  return allotments;
}

/**
 * Packs evidence blocks into the agent's context under a budget of content characters
 * (R24-R26; characters are UTF-16 code units, as `String.length` counts them).
 *
 * - Only content counts and only content is cut; evidence key, source, title, breadcrumb
 *   and hit reasons (and their plain-language line, `why`) of every included block are kept whole.
 * - Blocks are deduplicated by `evidenceKey` only (the first wins), never by source, so
 *   two chunks of one source both appear when the budget allows.
 * - In rank order, each block needs `minBlockChars` (default 160), or its whole content if
 *   shorter. The first block whose need no longer fits is omitted with every block after
 *   it (reason "context budget").
 * - The budget is shared: blocks shorter than an equal share keep all of their content,
 *   longer ones are cut to the share at a sentence or word boundary where one is near,
 *   marked `truncated`, and end with "…" (counted in the budget).
 *
 * `used` is the content characters packed and never exceeds `budget`.
 */
export function packContext(blocks: EvidenceBlock[], options: { budget: number; minBlockChars?: number }): ContextPack {
  const budget = requireWholeNumber("budget", options.budget, 0);
  const minBlockChars = requireWholeNumber("minBlockChars", options.minBlockChars ?? 160, 1);

  const seen = new Set<string>();
  const unique = blocks.filter((block) => {
    if (seen.has(block.evidenceKey)) return false;
    seen.add(block.evidenceKey);
    return true;
  });

  let needed = 0;
  let fitting = 0;
  for (const block of unique) {
    const need = Math.min(block.content.length, minBlockChars);
    if (needed + need > budget) break;
    needed += need;
    fitting += 1;
  }
  const included = unique.slice(0, fitting);
  const omitted = unique.slice(fitting);
  const allotments = allot(
    included.map((block) => block.content.length),
    budget,
  );

  const packed: PackedBlock[] = included.map((block, index) => {
    const allotment = allotments[index] ?? 0;
    const fits = block.content.length <= allotment;
    const content = fits ? block.content : truncateContent(block.content, allotment);
    const packedBlock: PackedBlock = {
      evidenceKey: block.evidenceKey,
      source: block.source,
      hitReasons: [...block.hitReasons],
      content,
      truncated: !fits,
      originalLength: block.content.length,
    };
    if (!fits) packedBlock.allotment = allotment;
    if (block.why !== undefined) packedBlock.why = block.why;
    if (block.title !== undefined) packedBlock.title = block.title;
    if (block.breadcrumb !== undefined) packedBlock.breadcrumb = block.breadcrumb;
    return packedBlock;
  });

  return {
    blocks: packed,
    budget,
    used: packed.reduce((sum, block) => sum + block.content.length, 0),
    summary: {
      includedSources: distinct(included.map((block) => block.source)),
      omittedSources: distinct(omitted.map((block) => block.source)),
      included: included.map((block) => block.evidenceKey),
      omitted: omitted.map((block) => ({
        evidenceKey: block.evidenceKey,
        source: block.source,
        reason: "context budget",
      })),
      truncated: packed.filter((block) => block.truncated).map((block) => block.evidenceKey),
    },
  };
}

function distinct(values: string[]): string[] {
  return [...new Set(values)];
}
