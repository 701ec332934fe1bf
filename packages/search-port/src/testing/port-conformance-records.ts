import type { MetadataFilter } from "@lookup-knowledge/core";
import type { KnowledgeRecord } from "../knowledge-record.js";

/**
 * The words every record of {@link portConformanceRecords} contains. A search for them must
 * return every record (the suite asks for more hits than there are records), so the
 * filter checks can compare whole answers with the reference `matchesFilter`. A port with a
 * minimum-score cut is tested with the cut off.
 */
export const portConformanceProbe = "knowledge note";

function record(docId: string, chunkIndex: number, content: string, metadata: Record<string, unknown>): KnowledgeRecord {
  return {
    id: `${docId}#chunk-${chunkIndex}`,
    content: `Knowledge note: ${content}`,
    metadata: { docId, chunkIndex, ...metadata },
  };
}

/**
 * The records the suite writes: ten chunks of eight documents whose metadata covers what
 * filters meet in practice: strings, integers, a float, booleans, lists of strings, a number
 * stored as a string, and fields that some records lack (`category`, `year`, `public`,
 * `tags`, `rating`).
 */
export const portConformanceRecords: readonly KnowledgeRecord[] = [
  record("refunds", 0, "refunds are paid back to the original card within five business days.", {
    source: "policies/refunds.md",
    title: "Refund policy",
    breadcrumb: "Policies > Refunds",
    category: "billing",
    tenant: "acme",
    year: 2021,
    public: true,
    tags: ["refunds", "payments"],
  }),
  record("refunds", 1, "a refund for a cancelled order needs the order number and the receipt.", {
    source: "policies/refunds.md",
    title: "Refund policy",
    breadcrumb: "Policies > Refunds > Cancelled orders",
    category: "billing",
    tenant: "acme",
    year: 2021,
    public: true,
    tags: ["refunds"],
  }),
  record("invoices", 0, "invoices are issued on the first day of each month as PDF files.", {
    source: "policies/invoices.md",
    title: "Invoices",
    breadcrumb: "Policies > Invoices",
    category: "billing",
    tenant: "acme",
    year: 2023,
    public: false,
    tags: ["payments", "invoices"],
  }),
  record("shipping", 0, "parcels leave the Rotterdam warehouse every weekday before noon.", {
    source: "guides/shipping.md",
    title: "Shipping",
    breadcrumb: "Guides > Shipping",
    category: "logistics",
    tenant: "globex",
    year: 2019,
    public: true,
    tags: ["shipping"],
  }),
  record("returns", 0, "returned items must be sent back in their original packaging.", {
    source: "guides/returns.md",
    title: "Returns",
    breadcrumb: "Guides > Returns",
    category: "logistics",
    tenant: "acme",
    year: 2022,
    public: false,
  }),
  record("onboarding", 0, "new accounts are activated after the email address is confirmed.", {
    source: "guides/onboarding.md",
    title: "Onboarding",
    breadcrumb: "Guides > Onboarding",
    tenant: "globex",
    year: 2020,
    public: true,
    tags: ["accounts"],
  }),
  record("security", 0, "passwords must be rotated every ninety days and never shared.", {
    source: "policies/security.md",
    title: "Security",
    breadcrumb: "Policies > Security",
    tenant: "acme",
  }),
  record("legacy", 0, "the legacy portal was retired and its data moved to the new system.", {
    source: "archive/legacy.md",
    title: "Legacy portal",
    breadcrumb: "Archive > Legacy portal",
    category: "archive",
    tenant: "initech",
    year: "2020",
    public: true,
  }),
  record("api", 0, "API keys are created in the dashboard and sent in the Api-Key header.", {
    source: "developers/api.md",
    title: "API access",
    breadcrumb: "Developers > API access",
    category: "developer",
    tenant: "acme",
    year: 2024,
    rating: 4.5,
  }),
  record("api", 1, "the API answers with HTTP status 429 when the rate limit is exceeded.", {
    source: "developers/api.md",
    title: "API access",
    breadcrumb: "Developers > API access > Rate limits",
    category: "developer",
    tenant: "acme",
    year: 2024,
    rating: 3,
  }),
];

/** One filter the suite checks, and what it exercises. */
export interface PortConformanceFilterCase {
  name: string;
  filter: MetadataFilter;
}

/** Every operator of `MetadataFilter`, alone and combined, including the edge cases of the reference. */
export const portConformanceFilterCases: readonly PortConformanceFilterCase[] = [
  { name: "$eq on a string", filter: { category: { $eq: "billing" } } },
  { name: "a bare value is $eq", filter: { category: "logistics" } },
  { name: "$eq on a number does not match the same digits as a string", filter: { year: { $eq: 2020 } } },
  { name: "$eq on a string does not match the same number", filter: { year: { $eq: "2020" } } },
  { name: "$eq on a boolean", filter: { public: { $eq: true } } },
  { name: "$eq on a list field matches any element", filter: { tags: { $eq: "payments" } } },
  { name: "$ne on a string also matches records without the field", filter: { category: { $ne: "billing" } } },
  { name: "$ne on a boolean also matches records without the field", filter: { public: { $ne: true } } },
  { name: "$in on strings", filter: { category: { $in: ["billing", "developer"] } } },
  { name: "$in on numbers", filter: { year: { $in: [2019, 2024] } } },
  { name: "$in on booleans", filter: { public: { $in: [false] } } },
  { name: "$in on a list field", filter: { tags: { $in: ["shipping", "invoices"] } } },
  { name: "$in with an empty list matches nothing", filter: { category: { $in: [] } } },
  { name: "$nin on strings also matches records without the field", filter: { category: { $nin: ["billing", "logistics"] } } },
  { name: "$nin on a list field", filter: { tags: { $nin: ["payments"] } } },
  { name: "$nin with an empty list matches everything", filter: { category: { $nin: [] } } },
  { name: "$gt", filter: { year: { $gt: 2021 } } },
  { name: "$gte", filter: { year: { $gte: 2021 } } },
  { name: "$lt skips missing fields and numbers stored as strings", filter: { year: { $lt: 2021 } } },
  { name: "$lte", filter: { year: { $lte: 2021 } } },
  { name: "$gt on a float", filter: { rating: { $gt: 3.5 } } },
  { name: "two operators on one field must both hold", filter: { year: { $gte: 2020, $lt: 2023 } } },
  { name: "$exists: true", filter: { category: { $exists: true } } },
  { name: "$exists: false", filter: { category: { $exists: false } } },
  { name: "fields at the top level are joined by AND", filter: { tenant: "acme", public: true } },
  { name: "$and", filter: { $and: [{ tenant: { $eq: "acme" } }, { category: { $eq: "billing" } }] } },
  { name: "$or", filter: { $or: [{ category: "logistics" }, { tags: { $in: ["accounts"] } }] } },
  {
    name: "$or over fields that some records lack",
    filter: { $or: [{ year: { $lt: 2020 } }, { category: { $exists: false } }] },
  },
  {
    name: "$and inside $or",
    filter: { $or: [{ $and: [{ tenant: "globex" }, { public: true }] }, { category: "developer" }] },
  },
  {
    name: "a caller's filter AND an $or (R12)",
    filter: { $and: [{ tenant: { $eq: "acme" } }, { $or: [{ category: "billing" }, { category: "developer" }] }] },
  },
  { name: "a value no record holds", filter: { category: "no-such-category" } },
];

/** Filters on a field no record has: the reference treats the field as missing everywhere. */
export const portConformanceUnknownFieldCases: readonly PortConformanceFilterCase[] = [
  { name: "$eq on an unknown field matches nothing", filter: { noSuchField: "x" } },
  { name: "$exists: false on an unknown field matches everything", filter: { noSuchField: { $exists: false } } },
  { name: "$ne on an unknown field matches everything", filter: { noSuchField: { $ne: "x" } } },
  { name: "$nin on an unknown field matches everything", filter: { noSuchField: { $nin: ["x"] } } },
  { name: "$gt on an unknown field matches nothing", filter: { noSuchField: { $gt: 0 } } },
];
