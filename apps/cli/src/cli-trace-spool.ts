import { join } from "node:path";
import { createTraceSpool, type TraceSpool } from "@lookup-knowledge/trace-store/recording";
import type { CliConfig } from "./cli-config.js";

// Apart from traces-command.ts so that a query, which records into the spool, loads only the
// trace store's recording entry, not what reads traces back (issue 36 item 5).

/**
 * Where a data folder's traces live: `@lookup-knowledge/agent-tool/local`'s `tracesDirectory`
 * (a test checks they agree), written here so that `traces` does not load the local index
 * that entry brings (issue 35 item 4: `traces` answers in well under a second).
 */
export function tracesDirectory(dataDirectory: string): string {
  return join(dataDirectory, "traces");
}

/**
 * The trace spool of the CLI's data folder: what `query` records into. Appending needs no
 * database, so a lookup never opens one (`traces` moves the records in later).
 */
export function openCliTraceSpool(config: CliConfig): TraceSpool {
  return createTraceSpool({
    directory: tracesDirectory(config.dataDirectory),
    queryStorage: config.traces.queryStorage,
    ...(config.traces.queryHashKey ? { queryHashKey: config.traces.queryHashKey } : {}),
  });
}
