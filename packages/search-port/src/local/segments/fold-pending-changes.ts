import { emptySnapshot } from "../snapshot/index-snapshot.js";
import type { StateSegment } from "../snapshot/local-index-state.js";
import { mergeSnapshot } from "../snapshot/merge-snapshot.js";
import type { PendingChanges } from "../snapshot/pending-changes.js";

/**
 * A writer's segments with `pending` folded in: each removed slot (of the segments composed,
 * `composeSnapshot`) marked deleted in its segment (a new array, so snapshots already composed
 * keep theirs), and the added records merged into the last segment when it is held in memory
 * since the last commit (its deleted records dropped), else into a new one held in memory. Written segments are
 * never changed: the next commit lists their deletions. `dimension` 0: no vectors.
 */
export function foldPendingChanges(segments: readonly StateSegment[], pending: PendingChanges, dimension: number): StateSegment[] {
  const { removed } = pending;
  let slot = 0;
  const folded = segments.map((segment): StateSegment => {
    const count = segment.snapshot.count;
    const before = segment.deleted;
    let marks: Uint8Array | undefined;
    for (let local = 0; local < count; local += 1) {
      if (before?.[local] === 1) continue;
      if (removed[slot] === 1) {
        marks ??= before === undefined ? new Uint8Array(count) : before.slice();
        marks[local] = 1;
      }
      slot += 1;
    }
    return marks === undefined ? segment : { ...segment, deleted: marks };
  });
  const last = folded.at(-1);
  // Only a segment held since the last commit takes the added records: one the last commit
  // listed without an entry of its own (a generation of format 6 or older, a rebuilt lexicon)
  // keeps its records as they were, with deletions, so what the commit counted stays apart.
  const inMemory = last !== undefined && last.entry === undefined && !last.committed ? last : undefined;
  if (pending.added.size === 0 && inMemory?.deleted === undefined) return folded;
  if (inMemory !== undefined) folded.pop();
  const base = inMemory?.snapshot ?? emptySnapshot();
  const merged = mergeSnapshot(
    base,
    { removed: inMemory?.deleted ?? new Uint8Array(base.count), added: pending.added, dictionaryTerms: pending.dictionaryTerms },
    dimension,
  );
  folded.push({ entry: undefined, snapshot: merged, committed: false, committedDeleted: undefined, deleted: undefined });
  return folded;
}
