import { emptyL0Hints } from "@lookup-knowledge/core";
import type { Candidate, L0Hints, SearchHit } from "@lookup-knowledge/core";
import { normalizeHits } from "../src/normalize-hits.js";

export interface HitOptions {
  score?: number;
  content?: string;
  title?: string;
  breadcrumb?: string;
  category?: string;
  source?: string;
  id?: string;
}

/** A well-formed port hit of chunk `chunkIndex` of `docId`. */
export function hit(docId: string, chunkIndex: number, options: HitOptions = {}): SearchHit {
  const metadata: Record<string, unknown> = { docId, chunkIndex, source: options.source ?? `docs/${docId}.md` };
  if (options.title !== undefined) metadata["title"] = options.title;
  if (options.breadcrumb !== undefined) metadata["breadcrumb"] = options.breadcrumb;
  if (options.category !== undefined) metadata["category"] = options.category;
  const result: SearchHit = { content: options.content ?? `Content of ${docId} chunk ${chunkIndex}.`, metadata };
  if (options.score !== undefined) result.score = options.score;
  if (options.id !== undefined) result.id = options.id;
  return result;
}

/** Normalised candidates of well-formed hits; throws if any hit is rejected. */
export function candidatesOf(hits: SearchHit[]): Candidate[] {
  const { candidates, rejected } = normalizeHits(hits);
  if (rejected.length > 0) throw new Error(`unexpected rejection: ${JSON.stringify(rejected)}`);
  return candidates;
}

/** L0 hints with the given fields and one matched entry, so they count as hints. */
export function hintsOf(partial: Partial<Omit<L0Hints, "entries">>): L0Hints {
  return {
    ...emptyL0Hints(),
    ...partial,
    entries: [{ id: "entry-1", source: "docs/entry.md", matches: [] }],
  };
}

export const noHints: L0Hints = emptyL0Hints();
