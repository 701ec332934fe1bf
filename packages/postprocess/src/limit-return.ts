import { requireWholeNumber } from "./internal/numbers.js";

/**
 * Keeps the first `returnN` of a ranked list (R17, `rag.return-n`): the width of the
 * answer, applied after rerank. The rest is returned as `dropped`, in order.
 */
export function limitReturn<T>(ranked: T[], returnN: number): { kept: T[]; dropped: T[] } {
  requireWholeNumber("returnN", returnN, 0);
  return { kept: ranked.slice(0, returnN), dropped: ranked.slice(returnN) };
}
