import type { FoundLookupResult, L0Hints, NoEvidenceLookupResult, RetrievalTrace } from "@lookup-knowledge/core";

/** A long chunk: far more than any record should hold (R28). */
export const longContent =
  `Refunds are paid back to the original card. ${"The refund window is thirty days from delivery. ".repeat(220)}`.slice(0, 10_000);

const hints: L0Hints = {
  titles: ["Refund policy"],
  keywords: ["refund", "card"],
  domains: ["billing"],
  entities: ["Visa"],
  entries: [
    {
      id: "refunds",
      source: "docs/billing/refunds.md",
      title: "Refund policy",
      domain: "billing",
      matches: [
        { field: "title", term: "refund" },
        { field: "keyword", term: "card" },
      ],
    },
    { id: "cards", source: "docs/billing/cards.md", matches: [{ field: "entity", term: "Visa" }] },
  ],
};

const callerFilter = { tenant: { $eq: "acme" } };
const l0Filter = { category: { $eq: "billing" } };

/** A retrieval trace; an override set to undefined removes that field (as a record from an older writer lacks it). */
function trace(overrides: { [K in keyof RetrievalTrace]?: RetrievalTrace[K] | undefined } = {}): RetrievalTrace {
  return {
    query: {
      received: "  How do Visa refunds work? ",
      normalized: "How do Visa refunds work?",
      transformed: "How do Visa refunds work? Visa",
      truncated: false,
      addedTerms: ["Visa"],
    },
    hints,
    l1Enabled: true,
    retrievalLayer: "L0+L1",
    attempts: [
      {
        attempt: 1,
        query: "How do Visa refunds work? Visa",
        topK: 20,
        filter: { $and: [callerFilter, l0Filter] },
        l0Filter,
        candidateCount: 3,
        evidenceCount: 2,
        topScore: 0.41,
        outcome: "low_quality",
        rejectedHits: [{ index: 2, id: "v9", reason: "content is not a string" }],
        durationMs: 12,
      },
      {
        attempt: 2,
        query: "How do Visa refunds work?",
        topK: 20,
        filter: callerFilter,
        candidateCount: 5,
        evidenceCount: 2,
        topScore: 0.83,
        outcome: "usable",
        rejectedHits: [],
        durationMs: 9,
      },
    ],
    fallbackReason: "filtered_vector_low_quality",
    candidateCount: 5,
    evidenceCount: 2,
    referenceThreshold: 0.6,
    ...overrides,
  } as RetrievalTrace;
}

/** A lookup that found two blocks after a low-quality filtered attempt and an unfiltered retry. */
export function foundResult(): FoundLookupResult {
  return {
    query: "How do Visa refunds work?",
    message: "Found 2 evidence blocks.",
    found: true,
    evidenceStatus: "evidence",
    evidenceBlocks: [
      {
        evidenceKey: "refunds#chunk-0",
        docId: "refunds",
        chunkIndex: 0,
        source: "docs/billing/refunds.md",
        title: "Refund policy",
        breadcrumb: "Refund policy > Cards",
        retrievalLayer: "L0+L1",
        content: longContent,
        hitReasons: ["semantic match 0.83", 'title matches L0 hint "Refund policy"'],
        score: 0.83,
        rankScore: 1.13,
        rank: 1,
      },
      {
        evidenceKey: "cards#chunk-3",
        docId: "cards",
        chunkIndex: 3,
        source: "docs/billing/cards.md",
        retrievalLayer: "L0+L1",
        content: "Visa refunds\n\n   appear on the statement within 5 days.",
        hitReasons: ['entity "Visa"'],
        rankScore: 0.7,
        rank: 2,
      },
    ],
    contextPack: {
      blocks: [
        {
          evidenceKey: "refunds#chunk-0",
          source: "docs/billing/refunds.md",
          title: "Refund policy",
          hitReasons: ["semantic match 0.83"],
          content: longContent.slice(0, 3000),
          truncated: true,
          originalLength: longContent.length,
          allotment: 3000,
        },
        {
          evidenceKey: "cards#chunk-3",
          source: "docs/billing/cards.md",
          hitReasons: ['entity "Visa"'],
          content: "Visa refunds appear on the statement within 5 days.",
          truncated: false,
          originalLength: 52,
        },
      ],
      budget: 4000,
      used: 3052,
      summary: {
        includedSources: ["docs/billing/refunds.md", "docs/billing/cards.md"],
        omittedSources: ["docs/billing/disputes.md"],
        included: ["refunds#chunk-0", "cards#chunk-3"],
        omitted: [{ evidenceKey: "disputes#chunk-1", source: "docs/billing/disputes.md", reason: "return width" }],
        truncated: ["refunds#chunk-0"],
      },
    },
    retrievalTrace: trace(),
    rerankTrace: {
      method: "rules-v1",
      entries: [
        {
          rank: 1,
          evidenceKey: "refunds#chunk-0",
          source: "docs/billing/refunds.md",
          baseScore: 0.83,
          boosts: [{ signal: "title", reason: 'title matches "Refund policy"', amount: 0.3 }],
          finalScore: 1.13,
          portRank: 1,
        },
        {
          rank: 2,
          evidenceKey: "cards#chunk-3",
          source: "docs/billing/cards.md",
          boosts: [{ signal: "entity", reason: 'entity "Visa"', amount: 0.2 }],
          finalScore: 0.7,
          portRank: 4,
        },
      ],
    },
    relevanceLevel: "high",
    completenessHint: { status: "partial", notes: ["1 block omitted by return width"] },
  };
}

/** A lookup whose port threw on both attempts (R11). */
export function noEvidenceResult(): NoEvidenceLookupResult {
  return {
    query: "quarterly revenue",
    message: "No knowledge evidence was found for this query.",
    found: false,
    evidenceStatus: "no_evidence",
    evidenceBlocks: [],
    relevanceLevel: "none",
    completenessHint: { status: "none", notes: [] },
    retrievalTrace: trace({
      query: {
        received: "quarterly revenue",
        normalized: "quarterly revenue",
        transformed: "quarterly revenue",
        truncated: false,
        addedTerms: [],
      },
      hints: { titles: [], keywords: [], domains: [], entities: [], entries: [] },
      retrievalLayer: "none",
      attempts: [
        {
          attempt: 1,
          query: "quarterly revenue",
          topK: 20,
          candidateCount: 0,
          evidenceCount: 0,
          outcome: "error",
          rejectedHits: [],
          error: { code: "timeout", message: "search did not answer within 3000 ms" },
          durationMs: 3000,
        },
      ],
      fallbackReason: undefined,
      candidateCount: 0,
      evidenceCount: 0,
    }),
  };
}

/** The query of `privateQueryResult`: none of its words is in the knowledge base's own names or content. */
export const privateQuery = "  Zebra quokka  MIGRATION timeline? ";

/**
 * A lookup whose query words reach the result everywhere a result can carry them: hit
 * reasons that quote query terms and hints, L0 hints matched from the query, and attempt
 * errors that quote the query (R28, hash mode).
 */
export function privateQueryResult(): FoundLookupResult {
  const base = foundResult();
  const hints: L0Hints = {
    titles: ["Migration Timeline"],
    keywords: ["migration", "quokka"],
    domains: ["fauna"],
    entities: ["Zebra"],
    entries: [
      {
        id: "herds",
        source: "docs/fauna/herds.md",
        title: "Migration Timeline",
        domain: "fauna",
        matches: [{ field: "title", term: "migration" }],
      },
    ],
  };
  const block = {
    evidenceKey: "herds#chunk-0",
    docId: "herds",
    chunkIndex: 0,
    source: "docs/fauna/herds.md",
    title: "Herd movements",
    breadcrumb: "Herd movements > Seasons",
    retrievalLayer: "L0+L1" as const,
    content: "Herds move north in spring and south in autumn.",
    hitReasons: [
      "semantic match 0.81",
      'heading mentions "zebra"',
      'title mentions query term "quokka"',
      'keyword "migration" (L0 hint)',
      'entity "Zebra" (L0 hint)',
      'title matches L0 hint "Migration Timeline"',
    ],
    score: 0.81,
    rankScore: 1.2,
    rank: 1,
  };
  return {
    ...base,
    query: "Zebra quokka MIGRATION timeline?",
    evidenceBlocks: [block],
    contextPack: {
      blocks: [
        {
          evidenceKey: block.evidenceKey,
          source: block.source,
          title: block.title,
          hitReasons: block.hitReasons,
          content: block.content,
          truncated: false,
          originalLength: block.content.length,
        },
      ],
      budget: 4000,
      used: block.content.length,
      summary: { includedSources: [block.source], omittedSources: [], included: [block.evidenceKey], omitted: [], truncated: [] },
    },
    rerankTrace: {
      method: "rules-v1",
      entries: [
        {
          rank: 1,
          evidenceKey: block.evidenceKey,
          source: block.source,
          baseScore: 0.81,
          boosts: [{ signal: "heading", reason: 'heading mentions "zebra"', amount: 0.1 }],
          finalScore: 1.2,
          portRank: 1,
        },
      ],
    },
    retrievalTrace: trace({
      query: {
        received: privateQuery,
        normalized: "Zebra quokka MIGRATION timeline?",
        transformed: "Zebra quokka MIGRATION timeline? Zebra",
        truncated: false,
        addedTerms: ["Zebra"],
      },
      hints,
      attempts: [
        {
          attempt: 1,
          query: "Zebra quokka MIGRATION timeline? Zebra",
          topK: 20,
          filter: { category: { $eq: "fauna" } },
          l0Filter: { category: { $eq: "fauna" } },
          candidateCount: 0,
          evidenceCount: 0,
          outcome: "error",
          rejectedHits: [],
          error: { code: "search_failed", message: 'the index refused "zebra quokka migration timeline? zebra": Quokka is not allowed' },
          durationMs: 4,
        },
        {
          attempt: 2,
          query: "Zebra quokka MIGRATION timeline?",
          topK: 20,
          candidateCount: 1,
          evidenceCount: 1,
          topScore: 0.81,
          outcome: "usable",
          rejectedHits: [],
          durationMs: 6,
        },
      ],
      fallbackReason: "filtered_vector_error",
      candidateCount: 1,
      evidenceCount: 1,
    }),
  };
}
