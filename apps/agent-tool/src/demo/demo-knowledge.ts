import type { KnowledgeEntry } from "@lookup-knowledge/core";

/**
 * A tiny knowledge base about "Lumen Ledger", an invented invoicing product, written for
 * the demo. Each chunk carries the identity metadata a real ingest would write.
 */
export interface DemoChunk {
  docId: string;
  chunkIndex: number;
  source: string;
  title: string;
  breadcrumb: string;
  category: string;
  content: string;
}

export const demoChunks: DemoChunk[] = [
  {
    docId: "billing/refunds",
    chunkIndex: 0,
    source: "billing/refunds.md",
    title: "Refunds",
    breadcrumb: "Refunds > Who can refund",
    category: "billing",
    content:
      "Workspace owners and members with the Billing Admin role can refund a paid invoice in Lumen Ledger. " +
      "Open the invoice, choose Refund, and enter the amount; partial refunds are allowed.",
  },
  {
    docId: "billing/refunds",
    chunkIndex: 1,
    source: "billing/refunds.md",
    title: "Refunds",
    breadcrumb: "Refunds > Refund window",
    category: "billing",
    content:
      "A refund can be issued up to 180 days after the invoice was paid. After that window, issue a credit note instead. " +
      "Refunds reach the customer's card in 5 to 10 business days.",
  },
  {
    docId: "billing/invoice-numbering",
    chunkIndex: 0,
    source: "billing/invoice-numbering.md",
    title: "Invoice numbering",
    breadcrumb: "Invoice numbering > Formats",
    category: "billing",
    content:
      "Invoice numbers follow the pattern PREFIX-YEAR-SEQUENCE, for example LL-2026-00042. The prefix is set per workspace " +
      "under Settings > Invoices and cannot be changed once an invoice is sent.",
  },
  {
    docId: "integrations/webhooks",
    chunkIndex: 0,
    source: "integrations/webhooks.md",
    title: "Webhooks",
    breadcrumb: "Webhooks > Signing secret",
    category: "integrations",
    content:
      "Every webhook request carries an X-Lumen-Signature header: an HMAC-SHA256 of the raw body with the endpoint's signing secret. " +
      "Rotate the signing secret under Developers > Webhooks; the old secret stays valid for 24 hours.",
  },
  {
    docId: "integrations/webhooks",
    chunkIndex: 1,
    source: "integrations/webhooks.md",
    title: "Webhooks",
    breadcrumb: "Webhooks > Retries",
    category: "integrations",
    content:
      "Failed webhook deliveries are retried with exponential backoff for up to 3 days. " +
      "An invoice.paid event is delivered at least once, so handlers must be idempotent.",
  },
  {
    docId: "integrations/accounting-export",
    chunkIndex: 0,
    source: "integrations/accounting-export.md",
    title: "Accounting export",
    breadcrumb: "Accounting export > CSV export",
    category: "integrations",
    content:
      "Export paid and refunded invoices to your accounting system as CSV from Reports > Export. " +
      "The export includes the invoice number, currency, tax lines and the refund amount of each invoice.",
  },
  {
    docId: "security/sso",
    chunkIndex: 0,
    source: "security/sso.md",
    title: "Single sign-on",
    breadcrumb: "Single sign-on > SAML setup",
    category: "security",
    content:
      "Lumen Ledger supports SAML 2.0 single sign-on on the Business plan. Upload your identity provider's metadata XML " +
      "under Settings > Security and map the email attribute.",
  },
];

export const demoEntries: KnowledgeEntry[] = [
  { id: "billing/refunds", source: "billing/refunds.md", title: "Refunds", keywords: ["refund", "credit note"], domain: "billing", entities: ["Billing Admin"] },
  { id: "billing/invoice-numbering", source: "billing/invoice-numbering.md", title: "Invoice numbering", keywords: ["invoice number", "prefix"], domain: "billing" },
  { id: "integrations/webhooks", source: "integrations/webhooks.md", title: "Webhooks", keywords: ["webhook", "signing secret"], domain: "integrations", entities: ["X-Lumen-Signature"] },
  { id: "integrations/accounting-export", source: "integrations/accounting-export.md", title: "Accounting export", keywords: ["csv export", "accounting"], domain: "integrations" },
  { id: "security/sso", source: "security/sso.md", title: "Single sign-on", keywords: ["sso", "saml"], domain: "security" },
];
