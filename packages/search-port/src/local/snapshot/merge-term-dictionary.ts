import { findTerm } from "../lexical/lexicon.js";

/** The lexicon of a merge: the base terms and the pending terms new to it, in sorted order. */
export interface MergedTerms {
  terms: string[];
  /** Each merged term's index among the base terms; -1 for a new one. */
  toBase: number[];
  /** Each pending dictionary term's index among the merged terms. */
  fromPending: Int32Array;
}

/** Merges the sorted `baseTerms` with the pending dictionary's terms (in the order they were first met). */
export function mergeTermDictionary(baseTerms: readonly string[], pendingTerms: readonly string[]): MergedTerms {
  const pendingToBase = new Int32Array(pendingTerms.length);
  const newTerms: number[] = [];
  pendingTerms.forEach((term, index) => {
    const found = findTerm(baseTerms, term);
    pendingToBase[index] = found;
    if (found < 0) newTerms.push(index);
  });
  newTerms.sort((left, right) => compareStrings(pendingTerms[left] as string, pendingTerms[right] as string));
  const terms: string[] = [];
  const toBase: number[] = [];
  const baseToMerged = new Int32Array(baseTerms.length);
  const fromPending = new Int32Array(pendingTerms.length);
  let baseIndex = 0;
  let newIndex = 0;
  while (baseIndex < baseTerms.length || newIndex < newTerms.length) {
    const baseTerm = baseTerms[baseIndex];
    const newTermId = newTerms[newIndex];
    const newTerm = newTermId === undefined ? undefined : pendingTerms[newTermId];
    if (newTerm === undefined || (baseTerm !== undefined && baseTerm < newTerm)) {
      baseToMerged[baseIndex] = terms.length;
      toBase.push(baseIndex);
      terms.push(baseTerm as string);
      baseIndex += 1;
    } else {
      fromPending[newTermId as number] = terms.length;
      toBase.push(-1);
      terms.push(newTerm);
      newIndex += 1;
    }
  }
  pendingTerms.forEach((_, index) => {
    const found = pendingToBase[index] as number;
    if (found >= 0) fromPending[index] = baseToMerged[found] as number;
  });
  return { terms, toBase, fromPending };
}

function compareStrings(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
