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

export const billingEntries: KnowledgeEntry[] = [
  {
    id: "billing/refunds",
    source: "billing/refunds.md",
    title: "Refunds",
    keywords: ["refund"],
    domain: "billing",
    entities: ["Billing Admin", "Refund Desk"],
  },
  { id: "billing/invoices", source: "billing/invoices.md", title: "Invoices", keywords: ["invoice"], domain: "billing" },
  { id: "integrations/webhooks", source: "integrations/webhooks.md", title: "Webhooks", keywords: ["webhook"], domain: "integrations" },
];
