// Which CLI file the ingest benches run in a checkout: the shipped bin by default, the esbuild
// bundle `apps/cli/dist/bundle/main.js` (what `lookup-knowledge` runs since issue 36 item 5),
// or the unbundled `apps/cli/dist/main.js` with BENCH_CLI_UNBUNDLED=1. A checkout built before
// the bundle existed (an earlier commit given as BENCH_CLI_BEFORE) has only the unbundled file:
// that one is run then, and the tables name the file each CLI ran.
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The CLI entry point of the checkout at `checkout` that the benches measure. */
export function cliMain(checkout) {
  const bundle = join(checkout, "apps/cli/dist/bundle/main.js");
  const unbundled = join(checkout, "apps/cli/dist/main.js");
  if (process.env.BENCH_CLI_UNBUNDLED === "1") return unbundled;
  return existsSync(bundle) ? bundle : unbundled;
}
