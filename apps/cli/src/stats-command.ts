import { printable } from "@lookup-knowledge/agent-tool/format";
import { openKnowledgeBase } from "@lookup-knowledge/agent-tool/stores";
import type { CliConfig } from "./cli-config.js";
import { describeCalibrationState } from "./eval-command.js";

/** `lookup-knowledge stats`: what the knowledge base of the settings holds, as printable lines. */
export async function runStatsCommand(config: CliConfig, warn: (message: string) => void): Promise<string> {
  const knowledgeBase = await openKnowledgeBase({
    dataDirectory: config.dataDirectory,
    store: config.store,
    config: config.ragKeys,
    onWarning: warn,
  });
  try {
    const local = knowledgeBase.store.localIndex?.stats();
    const lines = [`data folder  ${config.dataDirectory}`, `store        ${knowledgeBase.store.description}`];
    if (local) {
      lines.push(
        `documents    ${local.documents}`,
        `chunks       ${local.chunks}`,
        `L0 entries   ${knowledgeBase.l0Index.size}`,
        `embedder     ${local.embedder ? `${local.embedder.id}@${local.embedder.version} (${local.embedder.dimension} dimensions)` : "none (lexical only)"}`,
        `on disk      ${(local.bytesOnDisk / 1024 / 1024).toFixed(1)} MB`,
        `last commit  ${local.lastCommit ?? "never"}`,
      );
    } else {
      lines.push(
        `documents    ${knowledgeBase.documents} (recorded by the last ingest into this store)`,
        `L0 entries   ${knowledgeBase.l0Index.size}`,
      );
    }
    lines.push(`calibration  ${describeCalibrationState(knowledgeBase.calibration)}`);
    return lines.map(printable).join("\n");
  } finally {
    await knowledgeBase.close();
  }
}
