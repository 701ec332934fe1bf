import { printable } from "@lookup-knowledge/agent-tool/format";
import { optimizeLocalIndex } from "@lookup-knowledge/agent-tool/local";
import type { CliConfig } from "./cli-config.js";
import { CliError } from "./cli-error.js";
import { terminalJson } from "./terminal-json.js";

/**
 * `lookup-knowledge optimize [--json]`: merges the embedded index into one segment and drops
 * its deleted chunks (ingest merges small segments as it goes; a long-running host calls this
 * when it is idle). Readers keep answering from the commit they hold meanwhile.
 */
export async function runOptimizeCommand(config: CliConfig, options: { json?: boolean } = {}): Promise<string> {
  if (config.store.kind !== "local") {
    throw new CliError({
      code: "not_a_local_index",
      message: `optimize merges the embedded index's segments; the settings name the ${config.store.kind} store, which keeps its own (nothing to do here).`,
    });
  }
  const report = await optimizeLocalIndex({ dataDirectory: config.dataDirectory });
  if (options.json) {
    return terminalJson({
      dataFolder: config.dataDirectory,
      before: { segments: report.before.segments, chunks: report.before.chunks, bytesOnDisk: report.before.bytesOnDisk },
      after: { segments: report.after.segments, chunks: report.after.chunks, bytesOnDisk: report.after.bytesOnDisk },
      ms: Math.round(report.ms),
    });
  }
  const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return [
    `data folder  ${config.dataDirectory}`,
    `segments     ${report.before.segments} -> ${report.after.segments}`,
    `chunks       ${report.after.chunks}`,
    `on disk      ${megabytes(report.before.bytesOnDisk)} -> ${megabytes(report.after.bytesOnDisk)}`,
    `took         ${(report.ms / 1000).toFixed(1)} s`,
  ]
    .map(printable)
    .join("\n");
}
