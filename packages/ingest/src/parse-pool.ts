import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { errorMessage } from "@lookup-knowledge/core";
import { DocumentError } from "./document-error.js";
import type { ParsedDocument } from "./parsed-document.js";
import type { ResolvedIngestOptions } from "./resolve-ingest-options.js";

/** A message to a parse worker. */
export interface ParseRequest {
  id: number;
  text: string;
  source: string;
}

/** A parse worker's answer: the document, or why it was refused. */
export type ParseResponse = { id: number; document: ParsedDocument } | { id: number; error: { reason: string } };

/** Parses documents on worker threads, one document per worker at a time. */
export interface ParsePool {
  /** Parses a document; rejects with `DocumentError` when it is refused. */
  parse(text: string, source: string): Promise<ParsedDocument>;
  /** Stops the workers; pending parses reject. */
  close(): Promise<void>;
}

/**
 * Markdown parsing allocates many short-lived objects; a young generation larger than
 * V8's default (semi-spaces of 32 MB instead of 16) makes a parse about a fifth faster.
 */
const youngGenerationMb = 96;

interface Job extends ParseRequest {
  resolve: (document: ParsedDocument) => void;
  reject: (error: unknown) => void;
}

/**
 * How long one file may take to parse: 30 s, plus 10 s per MB. Parsing does about 1 MB a
 * second per core, and bounded nesting keeps it near-linear, so only a pathological file
 * reaches this; its worker is stopped and the file skipped.
 */
export function parseTimeLimitMs(textLength: number): number {
  return 30_000 + Math.ceil(textLength / 100_000) * 1_000;
}

/** Why a file was skipped when its parse ran past `parseTimeLimitMs`. */
export function parseTimeLimitReason(limitMs: number, textLength: number): string {
  return `parsing took longer than ${formatSeconds(limitMs)} s, the limit for a file of ${textLength} characters`;
}

interface Slot {
  worker: Worker;
  job?: Job | undefined;
  /** Stops the worker when its job takes longer than the time limit. */
  timer?: NodeJS.Timeout;
  /** Stops and replaces the worker, rejecting its job with the reason. */
  fail?: (reason: string, timedOut?: boolean) => void;
  /** Set once the worker failed, so its `error` and `exit` events replace it only once. */
  dead?: boolean;
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
  const queue: Job[] = [];
  const slots: Slot[] = [];
  let nextId = 0;
  let closed = false;
  /** Workers that died; past a few, the pool stops replacing them (a script that cannot load would crash forever). */
  let crashes = 0;
  let broken: string | undefined;

  const start = (): Slot => {
    const slot: Slot = {
      worker: new Worker(script, { workerData: options, resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb } }),
    };
    slot.worker.on("message", (response: ParseResponse) => {
      const job = slot.job;
      if (job === undefined || job.id !== response.id) return;
      slot.job = undefined;
      clearTimeout(slot.timer);
      if ("document" in response) job.resolve(response.document);
      else job.reject(new DocumentError({ source: job.source, reason: response.error.reason }));
      pump();
    });
    const fail = (reason: string, timedOut = false): void => {
      if (slot.dead === true) return;
      slot.dead = true;
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
    };
    slot.fail = fail;
    slot.worker.on("error", (error) => fail(errorMessage(error)));
    slot.worker.on("exit", (code) => {
      if (!closed) fail(`worker exited with code ${code}`);
    });
    return slot;
  };

  const pump = (): void => {
    for (const slot of slots) {
      if (slot.job !== undefined) continue;
      const job = queue.shift();
      if (job === undefined) return;
      slot.job = job;
      const limit = timeLimitMs(job.text.length);
      slot.timer = setTimeout(() => slot.fail?.(parseTimeLimitReason(limit, job.text.length), true), limit);
      slot.timer.unref();
      const request: ParseRequest = { id: job.id, text: job.text, source: job.source };
      slot.worker.postMessage(request);
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

function formatSeconds(milliseconds: number): string {
  return String(Math.round(milliseconds / 100) / 10);
}
