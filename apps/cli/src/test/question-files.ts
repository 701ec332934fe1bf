import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * A small question file over the example knowledge base: eight answerable questions (one
 * with `question` for `query`, one naming its file without `.md`) and five out of scope, two
 * of them near the domain.
 */
export const exampleQuestionLines = [
  { id: "refund-1", query: "Who can issue a refund for a paid invoice?", relevant: ["billing/refunds.md"] },
  { id: "refund-2", query: "How long does a card refund take to reach the customer?", relevant: ["billing/refunds"] },
  { id: "invoice-1", query: "Can I edit the line items of an invoice after it has been finalised?", relevant: ["billing/invoices.md"] },
  {
    id: "credit-1",
    question: "How do I give a customer a discount on an invoice they have already paid?",
    relevant: ["billing/credit-notes.md"],
  },
  { id: "webhook-1", query: "How do I rotate the webhook signing secret?", relevant: ["integrations/webhooks.md"] },
  { id: "sso-1", query: "How do I set up SAML single sign-on?", relevant: ["security/sso-saml.md"] },
  { id: "api-1", query: "What happens when I exceed the API rate limit?", relevant: ["api/rate-limits.md"] },
  {
    id: "2fa-1",
    query: "Can an admin reset another user's two-factor authentication?",
    relevant: ["security/two-factor-authentication.md"],
  },
  { id: "oos-1", query: "What is the boiling point of ethanol?", relevant: [] },
  { id: "oos-2", query: "Who painted the ceiling of the Sistine Chapel?", relevant: [] },
  { id: "oos-3", query: "How do I run payroll for employees in Germany?", relevant: [] },
  { id: "oos-4", query: "Does Lumen Ledger support importing bank statements in MT940 format?", relevant: [] },
  { id: "oos-5", query: "How many moons does Jupiter have?", relevant: [] },
];

/** Writes `lines` (objects, or raw text lines) as a JSONL file in `folder` and returns its path. */
export async function writeQuestionFile(
  folder: string,
  name: string,
  lines: ReadonlyArray<object | string> = exampleQuestionLines,
): Promise<string> {
  const file = join(folder, name);
  await writeFile(file, `${lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n")}\n`);
  return file;
}
