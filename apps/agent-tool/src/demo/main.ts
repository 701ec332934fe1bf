import { formatLookupResult } from "./format-lookup-result.js";
import { runDemo } from "./run-demo.js";

const { lookups, traces } = await runDemo();
for (const lookup of lookups) {
  console.log(`\n== ${lookup.label}\n${formatLookupResult(lookup.result)}`);
}
const first = lookups[0];
if (first) console.log(`\n== What the model reads for the first lookup\n${first.content}`);
console.log(`\n${traces.length} tool invocations recorded in the trace store.`);
