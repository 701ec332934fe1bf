/**
 * The parts of a merge by their current term, smallest first (UTF-16 code unit order, as
 * `findTerm` expects), a tie by part index: taking the top while it holds the same term gives
 * every part holding it in part order. Each entry keeps its term beside its part, so a
 * comparison reads two arrays.
 */
export class TermCursorHeap {
  private readonly parts: Int32Array;
  private readonly terms: string[];
  private length = 0;

  constructor(capacity: number) {
    this.parts = new Int32Array(capacity);
    this.terms = new Array<string>(capacity).fill("");
  }

  get size(): number {
    return this.length;
  }

  /** The part at the top (heap not empty). */
  topPart(): number {
    return this.parts[0] as number;
  }

  /** The current term of the part at the top. */
  topTerm(): string {
    return this.terms[0] as string;
  }

  push(part: number, term: string): void {
    let at = this.length;
    this.length += 1;
    while (at > 0) {
      const parent = (at - 1) >>> 1;
      if (!less(term, part, this.terms[parent] as string, this.parts[parent] as number)) break;
      this.parts[at] = this.parts[parent] as number;
      this.terms[at] = this.terms[parent] as string;
      at = parent;
    }
    this.parts[at] = part;
    this.terms[at] = term;
  }

  /** The top part moves on to `term`. */
  replaceTop(term: string): void {
    this.siftDown(this.parts[0] as number, term);
  }

  /** The top part has no term left. */
  removeTop(): void {
    this.length -= 1;
    if (this.length > 0) this.siftDown(this.parts[this.length] as number, this.terms[this.length] as string);
  }

  /** Puts (`term`, `part`) at the root and moves it down to its place. */
  private siftDown(part: number, term: string): void {
    const { length, parts, terms } = this;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= length) break;
      const right = left + 1;
      const child =
        right < length && less(terms[right] as string, parts[right] as number, terms[left] as string, parts[left] as number) ? right : left;
      if (!less(terms[child] as string, parts[child] as number, term, part)) break;
      parts[at] = parts[child] as number;
      terms[at] = terms[child] as string;
      at = child;
    }
    parts[at] = part;
    terms[at] = term;
  }
}

/** Whether (`term`, `part`) comes before (`otherTerm`, `otherPart`). */
function less(term: string, part: number, otherTerm: string, otherPart: number): boolean {
  if (term !== otherTerm) return term < otherTerm;
  return part < otherPart;
}
