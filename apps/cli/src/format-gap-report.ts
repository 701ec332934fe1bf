import { printable } from "@lookup-knowledge/agent-tool/format";
import type { KnowledgeGapGroup, KnowledgeGapReport } from "@lookup-knowledge/trace-store";

/** At most this many groups in the text output (`--json` has them all). */
const groupsShown = 20;

/**
 * `gaps` as text for a terminal: the period and what was read, then each group, largest first:
 * its kind, counts, days, shared terms, example queries, the closest pages and its id. Queries,
 * titles and paths come from users and documents: every line goes through `printable`, and a
 * query is quoted as JSON, so no control character or terminal escape reaches the terminal.
 */
export function formatGapReport(report: KnowledgeGapReport): string {
  const lines = [
    `Knowledge gaps from ${time(report.since)} to ${time(report.until)} UTC: ${report.lookupsRead} refused or low-relevance lookup${plural(report.lookupsRead)}, ${report.distinctQueries} distinct quer${report.distinctQueries === 1 ? "y" : "ies"}, ${report.groups.length} group${plural(report.groups.length)}.`,
    report.salience === "knowledge-base"
      ? "Grouped by shared terms, weighted by how rare they are in the knowledge base."
      : "Grouped by shared terms (the knowledge base's term counts were not used).",
  ];
  if (report.note) lines.push(report.note);
  report.groups.slice(0, groupsShown).forEach((group, index) => {
    lines.push("", ...groupLines(group, index + 1, report.queryText === "hashed"));
  });
  if (report.groups.length > groupsShown) {
    lines.push("", `${report.groups.length - groupsShown} smaller groups not shown (--json lists them all).`);
  }
  if (report.groups.length > 0) {
    lines.push("", "A group's lookups: lookup-knowledge trace <id> (ids in --json, lookupIds).");
  }
  return lines.map(printable).join("\n");
}

function groupLines(group: KnowledgeGapGroup, rank: number, hashed: boolean): string[] {
  const counts = [
    `${group.refusedLookups} refused`,
    ...(group.lowRelevanceLookups > 0 ? [`${group.lowRelevanceLookups} low relevance`] : []),
  ];
  const lines = [
    `${rank}. ${group.kind === "refused-page" ? "a page we have but refuse" : "a missing page"}: ${group.lookups} lookup${plural(group.lookups)} (${counts.join(", ")}), ${group.distinctQueries} distinct quer${group.distinctQueries === 1 ? "y" : "ies"}, ${time(group.firstSeen)} to ${time(group.lastSeen)}`,
    `   terms     ${group.terms.length > 0 ? group.terms.join(", ") : "-"}`,
  ];
  if (!hashed) {
    group.examples.forEach((example, index) => {
      lines.push(`   ${index === 0 ? "examples " : "         "} ${JSON.stringify(example)}`);
    });
  }
  // With answered (low-relevance) lookups beside refused ones, the refused ones' best is what the kind read.
  const refusedBest = group.refusedLookups > 0 && group.lowRelevanceLookups > 0 ? `, refused best ${score(group.bestRefusedScore)}` : "";
  lines.push(`   score     best ${score(group.bestScore)}${refusedBest}, threshold ${score(group.threshold)}${verdict(group)}`);
  if (group.closest.length === 0) lines.push("   closest   no page was named by the hints, the evidence or the best hits");
  group.closest.forEach((page, index) => {
    const title = page.title ? ` ${JSON.stringify(page.title)}` : "";
    const best = page.bestScore === null ? " (L0 hint)" : ` (score ${score(page.bestScore)})`;
    lines.push(`   ${index === 0 ? "closest  " : "         "} ${page.source}${title}${best}`);
  });
  lines.push(`   id        ${group.id}, newest lookup ${group.lookupIds[0] ?? "-"}`);
  return lines;
}

function verdict(group: KnowledgeGapGroup): string {
  if (group.kind === "refused-page") return ": at least half the threshold, a likely false refusal to review";
  if (group.refusedLookups === 0) return ": answered with low relevance, none refused";
  return group.bestRefusedScore === null ? ": no score recorded" : ": under half the threshold, nothing close";
}

function score(value: number | null): string {
  return value === null ? "-" : value.toFixed(3);
}

function time(iso: string): string {
  return iso.slice(0, 16).replace("T", " ");
}

function plural(count: number): string {
  return count === 1 ? "" : "s";
}
