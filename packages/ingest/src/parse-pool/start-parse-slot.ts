import { Worker } from "node:worker_threads";
import { errorMessage } from "@lookup-knowledge/core";
import { DocumentError } from "../document/document-error.js";
import type { ParseResponse } from "./parse-response.js";
import type { ParseSlot } from "./parse-slot.js";
import type { ResolvedIngestOptions } from "../options/resolve-ingest-options.js";

/**
 * Markdown parsing allocates many short-lived objects; a young generation larger than
 * V8's default (semi-spaces of 32 MB instead of 16) makes a parse about a fifth faster.
 */
const youngGenerationMb = 96;

/**
 * Starts one parse worker (`script`, started with `options`) in a slot. The worker's answer
 * to the slot's job settles the job (a refusal as `DocumentError`), then `answered` is
 * called. A worker that errs, or exits while the pool is not `closed`, fails the slot, once:
 * `failed(slot, reason, timedOut)`.
 */
export function startParseSlot(
  script: URL,
  options: ResolvedIngestOptions,
  events: { answered: () => void; failed: (slot: ParseSlot, reason: string, timedOut: boolean) => void; closed: () => boolean },
): ParseSlot {
  const slot: ParseSlot = {
    worker: new Worker(script, { workerData: options, resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } }),
  };
  slot.worker.on("message", (response: ParseResponse) => {
    const job = slot.job;
    if (job === undefined || job.id !== response.id) return;
    slot.job = undefined;
    clearTimeout(slot.timer);
    if ("document" in response) job.resolve(response.document);
    else job.reject(new DocumentError({ source: job.source, reason: response.error.reason }));
    events.answered();
  });
  const fail = (reason: string, timedOut = false): void => {
    if (slot.dead === true) return;
    slot.dead = true;
    events.failed(slot, reason, timedOut);
  };
  slot.fail = fail;
  slot.worker.on("error", (error) => fail(errorMessage(error)));
  slot.worker.on("exit", (code) => {
    if (!events.closed()) fail(`worker exited with code ${code}`);
  });
  return slot;
}
