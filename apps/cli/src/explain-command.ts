import type { MetadataFilter } from "@lookup-knowledge/core";
import { printable } from "@lookup-knowledge/agent-tool/format";
import { explainLookup, openKnowledgeBase, type LookupExplanation } from "@lookup-knowledge/agent-tool/stores";
import type { CliConfig } from "./cli-config.js";
import { CliError } from "./cli-error.js";
import { terminalJson } from "./terminal-json.js";

/** The plain form of an explanation: the expected document, one line per attempt, then the summary. Every line is escaped. */
export function formatExplanation(explanation: LookupExplanation): string {
  const { expected } = explanation;
  const name = expected.kind === "chunk" ? (expected.evidenceKey ?? expected.docId) : (expected.source ?? expected.docId);
  const lines = [`Expected ${expected.kind} ${name}${expected.inIndex ? "" : " (not in the index)"}.`];
  for (const attempt of explanation.attempts) {
    const filter = attempt.filter ? ` filter ${JSON.stringify(attempt.filter)}` : " no filter";
    const best = attempt.topSource ? `; best page ${attempt.topSource.source}` : "";
    lines.push(
      `attempt ${attempt.index} (${attempt.attemptOutcome}${attempt.used ? ", used" : ""};${filter}${best}): ${attempt.outcome.kind}: ${attempt.outcome.message}`,
    );
  }
  lines.push(explanation.summary);
  return lines.map(printable).join("\n");
}

/**
 * `lookup-knowledge explain "<query>" --expect <source or document_id>`: runs the lookup on
 * the configured store and says, per attempt, where the expected document stood and why.
 * An expected document the store does not hold is an answer (`not_in_index`), not an error.
 */
export async function runExplainCommand(
  config: CliConfig,
  query: string,
  options: { expect?: string; json: boolean; filter?: MetadataFilter; warn: (message: string) => void },
): Promise<string> {
  const expected = options.expect?.trim();
  if (!expected) {
    throw new CliError({
      code: "invalid_option",
      message:
        "explain needs --expect <source or document_id>: the document (billing/refunds.md) or chunk (billing/refunds#chunk-2) you expected",
    });
  }
  const knowledgeBase = await openKnowledgeBase({
    dataDirectory: config.dataDirectory,
    store: config.store,
    config: config.ragKeys,
    onWarning: options.warn,
  });
  try {
    const explanation = await explainLookup(knowledgeBase, query, { expected, ...(options.filter ? { filter: options.filter } : {}) });
    return options.json ? terminalJson(explanation) : formatExplanation(explanation);
  } finally {
    await knowledgeBase.close();
  }
}
