/** What a segment's files give a merge to walk, read before the merge writes anything. */
export interface SourceTables {
  count: number;
  terms: readonly string[];
  termStarts: Uint32Array;
  idEnds: Uint32Array;
  docIdEnds: Uint32Array;
}

/**
 * Checks what a merge trusts when it walks a segment's files: term starts that never go back
 * (a term's postings are `termStarts[t]` to `termStarts[t + 1]`), terms in strictly ascending
 * order (the k-way merge of terms needs it), and id ends that never go back. Block checksums
 * catch damaged bytes, not tables that were written wrong or made to mislead: without these
 * checks such a segment would be copied into a merged one that passes every check after.
 * `fail` names the file and what is wrong (a `CorruptIndexError`).
 */
export function checkSourceTables(tables: SourceTables, fail: (file: "postings" | "terms" | "keys", what: string) => never): void {
  const { terms, termStarts, idEnds, docIdEnds } = tables;
  for (let term = 0; term < terms.length; term += 1) {
    if ((termStarts[term + 1] as number) < (termStarts[term] as number)) fail("postings", `has term starts that go back at term ${term}`);
    if (term > 0 && !((terms[term - 1] as string) < (terms[term] as string)))
      fail("terms", `does not hold its terms in order at term ${term}`);
  }
  for (const [name, ends] of [
    ["id", idEnds],
    ["document id", docIdEnds],
  ] as const) {
    for (let slot = 1; slot < ends.length; slot += 1) {
      if ((ends[slot] as number) < (ends[slot - 1] as number)) fail("keys", `has ${name} ends that go back at slot ${slot}`);
    }
  }
}

/**
 * Checks one term's posting slots as read from a segment's file: strictly ascending and each
 * below the segment's `count` records. A slot past the end would otherwise land on another
 * segment's record in the merged one.
 */
export function checkPostingSlots(slots: Uint32Array, count: number, fail: (what: string) => never): void {
  let previous = -1;
  for (let posting = 0; posting < slots.length; posting += 1) {
    const slot = slots[posting] as number;
    if (slot <= previous || slot >= count) fail(`has posting slot ${slot} out of order or past its ${count} records`);
    previous = slot;
  }
}
