import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DocumentError } from "../document/document-error.js";
import { giveParseJob } from "./give-parse-job.js";
import type { ParseJob } from "./parse-job.js";
import type { ParseSlot } from "./parse-slot.js";
import { parseTimeLimitMs } from "./parse-time-limit.js";
import type { ParsedDocument } from "../document/parsed-document.js";
import type { ResolvedIngestOptions } from "../options/resolve-ingest-options.js";
import { startParseSlot } from "./start-parse-slot.js";

/** Parses documents on worker threads, one document per worker at a time. */
export interface ParsePool {
  /** Parses a document; rejects with `DocumentError` when it is refused. */
  parse(text: string, source: string): Promise<ParsedDocument>;
  /** Stops the workers; pending parses reject. */
  close(): Promise<void>;
}

/**
 * Starts `size` parse workers, or returns undefined when the worker script cannot run
 * here: when the package runs from its TypeScript sources (tests) or was bundled without
 * `parse-worker.js`. Callers then parse on the calling thread.
 */
export function createParsePool(
  size: number,
  options: ResolvedIngestOptions,
  limits: { timeLimitMs?: (textLength: number) => number } = {},
): ParsePool | undefined {
  const timeLimitMs = limits.timeLimitMs ?? parseTimeLimitMs;
  const script = new URL("./parse-worker.js", import.meta.url);
  if (script.protocol !== "file:" || !existsSync(fileURLToPath(script))) return undefined;
  const queue: ParseJob[] = [];
  const slots: ParseSlot[] = [];
  let nextId = 0;
  let closed = false;
  /** Workers that died; past a few, the pool stops replacing them (a script that cannot load would crash forever). */
  let crashes = 0;
  let broken: string | undefined;

  const start = (): ParseSlot => startParseSlot(script, options, { answered: () => pump(), failed, closed: () => closed });

  /** Stops and replaces a failed worker, rejecting its job with the reason; past too many crashes, the pool is broken. */
  function failed(slot: ParseSlot, reason: string, timedOut: boolean): void {
    clearTimeout(slot.timer);
    const job = slot.job;
    slot.job = undefined;
    const index = slots.indexOf(slot);
    if (index !== -1) slots.splice(index, 1);
    void slot.worker.terminate();
    job?.reject(new DocumentError({ source: job.source, reason: timedOut ? reason : `the parser crashed (${reason})` }));
    if (closed) return;
    if (timedOut) {
      slots.push(start());
      pump();
      return;
    }
    crashes += 1;
    if (crashes <= size + 2) {
      slots.push(start());
      pump();
    } else if (slots.length === 0) {
      broken = reason;
      for (const queued of queue.splice(0))
        queued.reject(new DocumentError({ source: queued.source, reason: `the parser crashed (${reason})` }));
    }
  }

  const pump = (): void => {
    for (const slot of slots) {
      if (slot.job !== undefined) continue;
      const job = queue.shift();
      if (job === undefined) return;
      giveParseJob(slot, job, timeLimitMs);
    }
  };

  for (let index = 0; index < size; index += 1) slots.push(start());

  return {
    parse(text, source) {
      if (closed) return Promise.reject(new Error("the parse pool is closed"));
      if (broken !== undefined) return Promise.reject(new DocumentError({ source, reason: `the parser crashed (${broken})` }));
      return new Promise<ParsedDocument>((resolve, reject) => {
        nextId += 1;
        queue.push({ id: nextId, text, source, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      const pending = [...queue.splice(0), ...slots.flatMap((slot) => (slot.job === undefined ? [] : [slot.job]))];
      for (const job of pending) job.reject(new Error("the parse pool was closed"));
      await Promise.all(
        slots.splice(0).map((slot) => {
          clearTimeout(slot.timer);
          return slot.worker.terminate();
        }),
      );
    },
  };
}
