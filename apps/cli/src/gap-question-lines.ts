import type { KnowledgeGapReport } from "@lookup-knowledge/trace-store";

/**
 * `gaps --export`: one question a line for every example query of every group, in the format
 * `eval` and `calibrate` read (`id`, `query`, `relevant`), with `relevant` empty for the owner
 * to fill in (or leave empty: out of scope), and what the line came from: `gap` (the group's
 * id), `kind`, and `closest` (the pages that came closest, candidates for `relevant`). Ids are
 * the group's id and the example's rank, so an export of the same records is the same file.
 */
export function gapQuestionLines(report: KnowledgeGapReport): string[] {
  return report.groups.flatMap((group) =>
    group.examples.map((query, index) =>
      JSON.stringify({
        id: `${group.id}-${index + 1}`,
        query,
        relevant: [],
        gap: group.id,
        kind: group.kind,
        closest: group.closest.map((page) => page.source),
      }),
    ),
  );
}
