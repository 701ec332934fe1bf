import type { PineconeTestFault } from "../pinecone-test-server.js";

/** The faults queued with `inject`, used up in order, and the timers of the delays they cause. */
export class FaultQueue {
  private readonly faults: Array<Required<Pick<PineconeTestFault, "times">> & PineconeTestFault> = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  push(fault: PineconeTestFault): void {
    this.faults.push({ ...fault, times: fault.times ?? 1 });
  }

  clear(): void {
    this.faults.length = 0;
  }

  /** The first queued fault for `path`, counted as used once. */
  take(path: string): PineconeTestFault | undefined {
    const index = this.faults.findIndex(
      (fault) => fault.path === undefined || (typeof fault.path === "string" ? fault.path === path : fault.path.test(path)),
    );
    if (index < 0) return undefined;
    const fault = this.faults[index] as (typeof this.faults)[number];
    fault.times -= 1;
    if (fault.times <= 0) this.faults.splice(index, 1);
    return fault;
  }

  /** Resolves after `ms`, unless `clearTimers` comes first (then never). */
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }

  clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
