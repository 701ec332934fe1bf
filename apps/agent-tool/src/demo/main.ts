import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatIngestReport } from "../cli/ingest-command.js";
import { formatLookupResult } from "../format-lookup-result.js";
import { runDemo } from "./run-demo.js";

// `pnpm start`: ingest examples/knowledge-base into .lookup-knowledge/ at the repository
// root (once; incremental after), then four lookups through the real lookup_knowledge tool.
const repository = fileURLToPath(new URL("../../../../", import.meta.url));
const knowledgeBase = resolve(process.argv[2] ?? `${repository}examples/knowledge-base`);
const dataDirectory = resolve(process.argv[3] ?? `${repository}.lookup-knowledge`);

const { ingest, lookups, traces } = await runDemo({ knowledgeBase, dataDirectory });
console.log(formatIngestReport(ingest));
for (const lookup of lookups) {
  console.log(`\n== ${lookup.label}\n${formatLookupResult(lookup.result)}`);
}
const first = lookups[0];
if (first) console.log(`\n== What the model reads for the first lookup\n${first.content}`);
console.log(`\n${traces.length} tool invocations recorded. Try: pnpm lookup-knowledge query "How long do refunds take?"`);
