import { addedPostings } from "./added-postings.js";
import { memorySnapshot } from "./index-snapshot.js";
import type { IndexSnapshot } from "./index-snapshot.js";
import { mergePostings } from "./merge-postings.js";
import { mergeSlotTables } from "./merge-slot-tables.js";
import { mergeTermDictionary } from "./merge-term-dictionary.js";
import { mergeVectors } from "./merge-vectors.js";
import type { PendingChanges } from "./pending-changes.js";
import { removedSlots } from "./removed-slots.js";

/**
 * A new snapshot: the base without its removed slots, then the pending records, with the
 * lexicon, postings and vectors merged (nothing is re-tokenised or re-embedded). Surviving
 * slots keep their order, so every term's postings stay sorted by slot. Terms left without
 * postings are dropped. `dimension` 0 means no vectors.
 *
 * One pass over the postings (`mergePostings`): a term whose postings hold no removed slot is
 * copied in bulk (shifted down by the removed slots before it), others posting by posting.
 */
export function mergeSnapshot(
  base: IndexSnapshot,
  pending: Pick<PendingChanges, "removed" | "added" | "dictionaryTerms">,
  dimension: number,
): IndexSnapshot {
  const baseKeys = base.keys.arrays();
  const baseLexical = base.lexicon.arrays();
  const removal = removedSlots(base.count, pending.removed);
  const added = [...pending.added.values()];
  const slots = mergeSlotTables(base, baseKeys, baseLexical.lengths, removal, added);
  const merged = mergeTermDictionary(baseLexical.terms, pending.dictionaryTerms);
  const postings = mergePostings(
    baseLexical,
    removal,
    merged,
    addedPostings(added, merged.fromPending, merged.terms.length, removal.survivors),
  );
  const { count, ids, docIds, fileSlots, memory, lengths, totalLength } = slots;
  return memorySnapshot({
    count,
    ids,
    docIds,
    lexical: { ...postings, lengths, totalLength },
    vectors: dimension > 0 ? mergeVectors(base, removal, added, count, dimension) : undefined,
    records: { file: base.records.file, fileSlots, memory },
  });
}
