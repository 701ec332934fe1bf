// A knowledge base whose documents and queries attack the page: the example base plus hostile documents.
import { cp, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exampleKnowledgeBase, inspectIngestedBase, type InspectedBase } from "./inspected-base.js";

/** What every payload sets when it runs, and the id every injected element carries. */
export const ownedFlag = "__owned";
export const injectedId = "owned-by-doc";

/** The hostile document's file name: an element with an error handler, as a path part. */
export const hostileFileName = `<img id=${injectedId} src=x onerror=window.${ownedFlag}=1>.md`;
export const hostileSource = `hostile/${hostileFileName}`;
/** Its front matter title: HTML with an error handler. */
export const hostileTitle = `<img src=x id=${injectedId} onerror="window.${ownedFlag}='title';alert(1)"> Zebracorn ledger`;
/** A script element in its body, raw and in a fenced code block (which reaches the model as it is). */
export const hostileScript = `<script id="${injectedId}">window.${ownedFlag} = "body"; alert("body")</script>`;
export const hostileHeading = `<b id="${injectedId}" onclick="window.${ownedFlag}='heading'">Zebracorn</b> reconciliation`;
/** Terminal escape sequences: clear screen, colour, an OSC 8 hyperlink. */
export const terminalEscapes = "\u001b[2J\u001b[31mRED ALERT\u001b[0m \u001b]8;;https://example.invalid\u0007link\u001b]8;;\u0007";
/** A line of 6,000 characters, after words the first hostile query asks for (so a piece of it is among the evidence). */
export const longLine = `Zebracorn ledger reconciliation run log: zebracorn${"x".repeat(6000)}`;

const hostileDocument = [
  "---",
  `title: ${JSON.stringify(hostileTitle)}`,
  "description: \"<script>window.__owned='description'</script> How the zebracorn ledger reconciles.\"",
  "category: billing",
  "---",
  "",
  `# <i id="${injectedId}">Zebracorn</i> ledger <img src=x onerror="window.${ownedFlag}='h1'">`,
  "",
  `The zebracorn ledger reconciliation runs every night. ${hostileScript}`,
  "",
  "The zebracorn ledger page embeds this snippet:",
  "",
  "```html",
  hostileScript,
  "```",
  "",
  `## ${hostileHeading}`,
  "",
  `Open the [zebracorn ledger](javascript:window.${ownedFlag}='link') or <a id="${injectedId}" href="javascript:window.${ownedFlag}='a'">this link</a> to reconcile.`,
  "",
  `Terminal output of the zebracorn reconciliation: ${terminalEscapes}`,
  "",
  longLine,
  "",
].join("\n");

/** Queries that are hostile too; the first finds the hostile document. */
export const hostileQueries = [
  `<img src=x id=${injectedId} onerror="window.${ownedFlag}='query';alert(1)"> How does the zebracorn ledger reconciliation run? <script>window.${ownedFlag}='query'</script>`,
  `</td></tr><script>window.${ownedFlag}='row'</script> zebracorn quokkasecret`,
];

/**
 * The example base with a hostile folder added, really ingested into a temp data folder; the
 * hostile queries recorded in its durable trace store (query text kept, or only its hash); the
 * inspector serving both on a free port.
 */
export async function inspectHostileBase(options: { queryStorage?: "text" | "hash" } = {}): Promise<InspectedBase> {
  const folder = await mkdtemp(join(tmpdir(), "lookup-knowledge-inspector-hostile-"));
  const root = join(folder, "knowledge-base");
  await cp(exampleKnowledgeBase, root, { recursive: true });
  await mkdir(join(root, "hostile"));
  await writeFile(join(root, "hostile", hostileFileName), hostileDocument);
  return inspectIngestedBase({ folder, root, queries: hostileQueries, ...options });
}
