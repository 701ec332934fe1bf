import type { KnowledgeEntry, SearchHit } from "@lookup-knowledge/core";

/** A port hit with identity metadata, for tests. */
export function hit(
  docId: string,
  chunkIndex: number,
  score: number | undefined,
  extra: { content?: string; category?: string; title?: string; breadcrumb?: string; source?: string } = {},
): SearchHit {
  return {
    id: `${docId}#chunk-${chunkIndex}`,
    content: extra.content ?? `Content of ${docId} chunk ${chunkIndex}.`,
    ...(score === undefined ? {} : { score }),
    metadata: {
      docId,
      chunkIndex,
      source: extra.source ?? `${docId}.md`,
      ...(extra.title ? { title: extra.title } : {}),
      ...(extra.breadcrumb ? { breadcrumb: extra.breadcrumb } : {}),
      ...(extra.category ? { category: extra.category } : {}),
    },
  };
}

/**
 * A small L0 catalogue. Only distinctive terms (two words or more, identifier-like words) put
 * an entry's domain into `hints.domains`, so only they make the R7 category filter: a query
 * naming the "refund window" or the "Billing Admin" gets `category=billing`, while "refund" or
 * "Refunds" alone lists the entry with billing as an `otherDomain` only. "webhook event" is the
 * distinctive term of a second domain, for queries that span two.
 */
export const billingEntries: KnowledgeEntry[] = [
  {
    id: "billing/refunds",
    source: "billing/refunds.md",
    title: "Refunds",
    keywords: ["refund", "refund window"],
    domain: "billing",
    entities: ["Billing Admin", "Refund Desk"],
  },
  { id: "billing/invoices", source: "billing/invoices.md", title: "Invoices", keywords: ["invoice"], domain: "billing" },
  {
    id: "integrations/webhooks",
    source: "integrations/webhooks.md",
    title: "Webhooks",
    keywords: ["webhook", "webhook event"],
    domain: "integrations",
  },
];
