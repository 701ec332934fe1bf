import { parseOptions } from "@lookup-knowledge/core";
import { z } from "zod";
import { guardErrorHandler } from "./guard-error-handler.js";
import type { TraceRecordError } from "./trace-record-error.js";
import { wholeNumberOption } from "./whole-number-option.js";

/** The longest wait between two retry passes, unless `retryDelayMs` is longer. */
const longestRetryDelayMs = 30_000;

/** The numeric options of `createTraceRecorder`, with their defaults (`onError` is read as given). */
const recorderOptionsSchema = z.object({
  maxPending: wholeNumberOption(0).default(1000),
  retryDelayMs: wholeNumberOption(0).default(500),
  writeTimeoutMs: wholeNumberOption(1).default(5000),
});

/** The options of `createTraceRecorder`. */
export interface TraceRecorderOptions {
  /** Most records kept waiting during an outage; beyond it the oldest is dropped. Default 1000. */
  maxPending?: number;
  /** First wait between retry passes, in ms; doubles per failed pass up to 30 s. Default 500. */
  retryDelayMs?: number;
  /** A write not settled after this many ms counts as failed. Default 5000. */
  writeTimeoutMs?: number;
  onError?: (error: TraceRecordError) => void;
}

/** `TraceRecorderOptions` checked, with every default filled in. */
export interface TraceRecorderSettings {
  maxPending: number;
  retryDelayMs: number;
  /** The longest wait between two retry passes: 30 s, or `retryDelayMs` when that is longer. */
  maxRetryDelayMs: number;
  writeTimeoutMs: number;
  /** `onError` (default: `console.warn` of the message), its own failure ignored. */
  report: (error: TraceRecordError) => void;
}

/** Checks the options of `createTraceRecorder`; a bad one throws `ConfigurationError` naming it. */
export function readTraceRecorderOptions(options: TraceRecorderOptions): TraceRecorderSettings {
  const { maxPending, retryDelayMs, writeTimeoutMs } = parseOptions(recorderOptionsSchema, options, "createTraceRecorder");
  const onError = options.onError ?? ((error: TraceRecordError) => console.warn(error.message));
  return {
    maxPending,
    retryDelayMs,
    maxRetryDelayMs: Math.max(retryDelayMs, longestRetryDelayMs),
    writeTimeoutMs,
    report: guardErrorHandler(onError),
  };
}
