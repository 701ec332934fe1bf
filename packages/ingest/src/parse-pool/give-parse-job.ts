import type { ParseJob } from "./parse-job.js";
import type { ParseRequest } from "./parse-request.js";
import type { ParseSlot } from "./parse-slot.js";
import { parseTimeLimitReason } from "./parse-time-limit.js";

/** Hands `job` to the idle `slot`'s worker; the slot fails (timed out) when the parse takes longer than `timeLimitMs` allows. */
export function giveParseJob(slot: ParseSlot, job: ParseJob, timeLimitMs: (textLength: number) => number): void {
  slot.job = job;
  const limit = timeLimitMs(job.text.length);
  slot.timer = setTimeout(() => slot.fail?.(parseTimeLimitReason(limit, job.text.length), true), limit);
  slot.timer.unref();
  const request: ParseRequest = { id: job.id, text: job.text, source: job.source };
  slot.worker.postMessage(request);
}
