import type { SearchHit } from "@lookup-knowledge/core";

/** The order of a port's answer: best score first (a missing score counts as 0), ties by id. */
export function compareHits(left: SearchHit, right: SearchHit): number {
  return (right.score ?? 0) - (left.score ?? 0) || compareIds(left.id ?? "", right.id ?? "");
}

function compareIds(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
