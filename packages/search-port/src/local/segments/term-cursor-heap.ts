/**
 * The parts of a merge by their current term, smallest first (UTF-16 code unit order, as
 * `findTerm` expects), a tie by part index: popping every part whose current term is the
 * smallest gives them in part order.
 */
export class TermCursorHeap {
  private readonly heap: number[] = [];

  constructor(private readonly current: (part: number) => string) {}

  get size(): number {
    return this.heap.length;
  }

  /** The part whose current term is the smallest (heap not empty). */
  peek(): number {
    return this.heap[0] as number;
  }

  push(part: number): void {
    const heap = this.heap;
    heap.push(part);
    let at = heap.length - 1;
    while (at > 0) {
      const parent = (at - 1) >>> 1;
      if (!this.before(heap[at] as number, heap[parent] as number)) break;
      [heap[at], heap[parent]] = [heap[parent] as number, heap[at] as number];
      at = parent;
    }
  }

  pop(): number {
    const heap = this.heap;
    const top = heap[0] as number;
    const last = heap.pop() as number;
    if (heap.length === 0) return top;
    heap[0] = last;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let smallest = at;
      if (left < heap.length && this.before(heap[left] as number, heap[smallest] as number)) smallest = left;
      if (right < heap.length && this.before(heap[right] as number, heap[smallest] as number)) smallest = right;
      if (smallest === at) return top;
      [heap[at], heap[smallest]] = [heap[smallest] as number, heap[at] as number];
      at = smallest;
    }
  }

  private before(left: number, right: number): boolean {
    const leftTerm = this.current(left);
    const rightTerm = this.current(right);
    if (leftTerm !== rightTerm) return leftTerm < rightTerm;
    return left < right;
  }
}
