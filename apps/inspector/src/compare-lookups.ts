import type { LookupResult } from "@lookup-knowledge/core";

/** How one evidence block fared between configuration A and B. */
export interface BlockChange {
  evidenceKey: string;
  source: string;
  /** 1-based rank under A, or null when A did not return it. */
  rankA: number | null;
  rankB: number | null;
  /** `entered`: only B has it; `left`: only A has it; `moved`: both, at another rank; `same`: both, same rank. */
  change: "entered" | "left" | "moved" | "same";
}

/** Which evidence blocks changed rank, entered or left between two lookups of the same query. */
export function compareLookups(a: LookupResult, b: LookupResult): BlockChange[] {
  const ranksB = new Map(b.evidenceBlocks.map((block) => [block.evidenceKey, block]));
  const changes: BlockChange[] = a.evidenceBlocks.map((block) => {
    const other = ranksB.get(block.evidenceKey);
    const rankB = other ? other.rank : null;
    const change = rankB === null ? "left" : rankB === block.rank ? "same" : "moved";
    return { evidenceKey: block.evidenceKey, source: block.source, rankA: block.rank, rankB, change };
  });
  const keysA = new Set(a.evidenceBlocks.map((block) => block.evidenceKey));
  for (const block of b.evidenceBlocks) {
    if (!keysA.has(block.evidenceKey)) {
      changes.push({ evidenceKey: block.evidenceKey, source: block.source, rankA: null, rankB: block.rank, change: "entered" });
    }
  }
  return changes;
}
