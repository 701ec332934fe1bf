import type { Worker } from "node:worker_threads";
import type { ParseJob } from "./parse-job.js";

/** One parse worker of the pool and the job it is parsing. */
export interface ParseSlot {
  worker: Worker;
  job?: ParseJob | undefined;
  /** Stops the worker when its job takes longer than the time limit. */
  timer?: NodeJS.Timeout;
  /** Stops and replaces the worker, rejecting its job with the reason. */
  fail?: (reason: string, timedOut?: boolean) => void;
  /** Set once the worker failed, so its `error` and `exit` events replace it only once. */
  dead?: boolean;
}
