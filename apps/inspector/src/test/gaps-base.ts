// The example base with lookups the knowledge base cannot answer, recorded by the real
// retriever over three days: what the Gaps view groups.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { vi } from "vitest";
import { exampleKnowledgeBase, inspectIngestedBase, type InspectedBase } from "./inspected-base.js";

/** Questions on topics the example base has no page for, or refuses a page for; and ones it answers. */
export const gapTopics = {
  /** Nothing in the base is close: a missing page. */
  ethanol: ["What is the boiling point of ethanol?", "At what temperature does ethanol boil?", "ethanol boiling point at sea level"],
  /** Payment methods come close, under the threshold. */
  bitcoin: ["Can I pay an invoice with Bitcoin?", "Do you accept Bitcoin for invoice payments?"],
  parking: ["Where can I park my car at the office?", "Is there visitor parking at the office?"],
  answered: ["Who can issue a refund for a paid invoice?", "How long does a card refund take to reach the customer?"],
} as const;

/** What was asked how many days ago (0: today), oldest first: the ethanol topic most, then Bitcoin, then parking. */
const schedule: ReadonlyArray<{ daysAgo: number; queries: readonly string[] }> = [
  { daysAgo: 2, queries: [gapTopics.ethanol[0], gapTopics.ethanol[1], gapTopics.bitcoin[0], gapTopics.answered[0]] },
  { daysAgo: 1, queries: [gapTopics.ethanol[0], gapTopics.ethanol[2], gapTopics.bitcoin[1], gapTopics.parking[0], gapTopics.answered[1]] },
  {
    daysAgo: 0,
    queries: [
      gapTopics.ethanol[1],
      gapTopics.ethanol[0],
      gapTopics.bitcoin[0],
      gapTopics.bitcoin[1],
      gapTopics.parking[1],
      gapTopics.answered[0],
    ],
  },
];

/** One recorded lookup: when, and whether the lookup was refused or found only low-relevance evidence (what `gaps` reads). */
export interface GapLookup {
  query: string;
  at: Date;
  gap: boolean;
}

export interface GapsBase extends InspectedBase {
  lookups: GapLookup[];
}

const minute = 60_000;
const day = 24 * 60 * minute;

/**
 * The example base really ingested into a temp data folder, the scheduled lookups run by its
 * retriever and recorded in its durable trace store (the clock set to each lookup's time: a
 * minute apart, today's in the last minutes and the earlier days' a whole day and more before),
 * and the inspector serving both on a free port.
 */
export async function inspectGapsBase(options: { queryStorage?: "text" | "hash" } = {}): Promise<GapsBase> {
  const folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-inspector-gaps-"));
  const lookups: GapLookup[] = [];
  const base = await inspectIngestedBase({
    folder,
    root: exampleKnowledgeBase,
    queries: [],
    ...options,
    record: async (knowledgeBase) => {
      const now = Date.now();
      vi.useFakeTimers({ toFake: ["Date"] });
      try {
        for (const { daysAgo, queries } of schedule) {
          for (const [index, query] of queries.entries()) {
            const at = new Date(now - daysAgo * day - (queries.length - index + 1) * minute);
            vi.setSystemTime(at);
            const result = await knowledgeBase.retriever.lookup(query);
            lookups.push({ query, at, gap: !result.found || result.relevanceLevel === "low" });
          }
        }
      } finally {
        vi.useRealTimers();
      }
    },
  });
  return { ...base, lookups };
}

/** The UTC date of a time, `2026-03-14`. */
export const utcDay = (at: Date) => at.toISOString().slice(0, 10);
