import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatIngestReport } from "../ingest-command.js";
import { formatLookupResult } from "@lookup-knowledge/agent-tool/format";
import { runDemo } from "./run-demo.js";

// `pnpm start`: ingest examples/knowledge-base into .lookup-knowledge/ at the repository
// root (once; incremental after), then four lookups through the real lookup_knowledge tool,
// each recorded in the data folder's trace store (PostgreSQL when DATABASE_URL is set).
const repository = fileURLToPath(new URL("../../../../", import.meta.url));
const knowledgeBase = resolve(process.argv[2] ?? `${repository}examples/knowledge-base`);
const dataDirectory = resolve(process.argv[3] ?? `${repository}.lookup-knowledge`);

const databaseUrl = process.env["DATABASE_URL"]?.trim();
const { ingest, lookups, traces, traceLocation } = await runDemo({ knowledgeBase, dataDirectory, ...(databaseUrl ? { databaseUrl } : {}) });
console.log(formatIngestReport(ingest));
for (const lookup of lookups) {
  console.log(`\n== ${lookup.label}\n${formatLookupResult(lookup.result)}`);
}
const first = lookups[0];
if (first) console.log(`\n== What the model reads for the first lookup\n${first.content}`);
console.log(`\n${traces.length} tool invocations recorded in ${traceLocation}.`);
const data = process.argv[3] ? ` --data ${dataDirectory}` : "";
console.log(`Try: pnpm lookup-knowledge${data} traces`);
if (traces[0]) console.log(`     pnpm lookup-knowledge${data} trace ${traces[0].id}`);
console.log(`     pnpm lookup-knowledge${data} query "How long do refunds take?"`);
console.log(`     pnpm -s lookup-knowledge${data} inspect   (the inspector page in a browser)`);
