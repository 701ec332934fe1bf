import { type LookupResult, printable } from "@lookup-knowledge/core";

/**
 * A readable, plain-text rendering of a lookup for people (the demo and the CLI's `query`).
 * Text from documents, ports and the query cannot reach the terminal as control characters
 * (escape sequences, line breaks): each becomes U+FFFD, so every line is one of this rendering.
 */
export function formatLookupResult(result: LookupResult): string {
  const trace = result.retrievalTrace;
  const lines: string[] = [];
  lines.push(`query      ${JSON.stringify(trace.query.normalized)}`);
  lines.push(`found      ${result.found} (${result.evidenceStatus}), layer ${trace.retrievalLayer}, relevance ${result.relevanceLevel}`);
  const hints = trace.hints;
  if (hints.entries.length > 0) {
    const parts = [
      hints.titles.length ? `titles ${hints.titles.join(", ")}` : "",
      hints.keywords.length ? `keywords ${hints.keywords.join(", ")}` : "",
      hints.domains.length ? `domains ${hints.domains.join(", ")}` : "",
      hints.entities.length ? `entities ${hints.entities.join(", ")}` : "",
    ].filter(Boolean);
    lines.push(`L0 hints   ${parts.join("; ")}`);
  } else {
    lines.push("L0 hints   none");
  }
  for (const attempt of trace.attempts) {
    const filter = attempt.filter ? JSON.stringify(attempt.filter) : "no filter";
    const top = attempt.topScore === undefined ? "-" : attempt.topScore.toFixed(3);
    const error = attempt.error ? `, error: ${attempt.error.message}` : "";
    lines.push(`attempt ${attempt.attempt}  ${filter}: ${attempt.candidateCount} candidates, top score ${top}, ${attempt.outcome}${error}`);
  }
  if (trace.fallbackReason) lines.push(`fallback   ${trace.fallbackReason}`);
  if (!result.found) {
    lines.push(`message    ${result.message}`);
    return lines.map(printable).join("\n");
  }
  lines.push(`completeness ${result.completenessHint.status}`, ...result.completenessHint.notes.map((note) => `  - ${note}`));
  for (const block of result.evidenceBlocks) {
    // The list is ordered by the rerank's score (the search score plus the boosts), so that is the
    // score printed first; the store's own score follows, named as such.
    const search = block.score === undefined ? "" : `, search score ${block.score.toFixed(3)}`;
    lines.push(
      `  #${block.rank} ${block.evidenceKey}  (${block.source}, rank score ${block.rankScore.toFixed(3)}${search}, ${block.retrievalLayer})`,
    );
    if (block.breadcrumb) lines.push(`     ${block.breadcrumb}`);
    lines.push(`     why: ${block.hitReasons.join("; ")}`);
    const flat = block.content.replace(/\s+/g, " ").trim();
    const preview = flat.length > 140 ? `${flat.slice(0, 137)}...` : flat;
    lines.push(`     ${preview}`);
  }
  return lines.map(printable).join("\n");
}
