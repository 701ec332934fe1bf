import { parseOptions } from "@lookup-knowledge/core";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import { guardErrorHandler } from "./guard-error-handler.js";
import type { TraceRecordError } from "../record/trace-record-error.js";
import { isWholeNumberOption, wholeNumberOption } from "../options/whole-number-option.js";

/** The longest wait between two retry passes, unless `retryDelayMs` is longer. */
const longestRetryDelayMs = 30_000;

/** The numeric options of `createTraceRecorder`: each one's least value and default (`onError` is read as given). */
const numericOptions = {
  maxPending: { least: 0, default: 1000 },
  retryDelayMs: { least: 0, default: 500 },
  writeTimeoutMs: { least: 1, default: 5000 },
} as const;

/** Their schema, built (and zod loaded) on first use: plainly valid options are read without it (issue 36 item 5). */
const recorderOptionsSchema = schemaOnDemand((z) =>
  z.object({
    maxPending: wholeNumberOption(z, numericOptions.maxPending.least).default(numericOptions.maxPending.default),
    retryDelayMs: wholeNumberOption(z, numericOptions.retryDelayMs.least).default(numericOptions.retryDelayMs.default),
    writeTimeoutMs: wholeNumberOption(z, numericOptions.writeTimeoutMs.least).default(numericOptions.writeTimeoutMs.default),
  }),
);

/** The numeric options when each is absent or plainly valid, with their defaults; else undefined (the schema reads them). */
function readPlainNumericOptions(
  options: TraceRecorderOptions,
): { maxPending: number; retryDelayMs: number; writeTimeoutMs: number } | undefined {
  if (options === null || typeof options !== "object" || Array.isArray(options)) return undefined;
  const read = { maxPending: 0, retryDelayMs: 0, writeTimeoutMs: 0 };
  for (const name of ["maxPending", "retryDelayMs", "writeTimeoutMs"] as const) {
    const value: unknown = options[name];
    if (value === undefined) read[name] = numericOptions[name].default;
    else if (isWholeNumberOption(value, numericOptions[name].least)) read[name] = value;
    else return undefined;
  }
  return read;
}

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
  const { maxPending, retryDelayMs, writeTimeoutMs } =
    readPlainNumericOptions(options) ?? parseOptions(recorderOptionsSchema(), options, "createTraceRecorder");
  const onError = options.onError ?? ((error: TraceRecordError) => console.warn(error.message));
  return {
    maxPending,
    retryDelayMs,
    maxRetryDelayMs: Math.max(retryDelayMs, longestRetryDelayMs),
    writeTimeoutMs,
    report: guardErrorHandler(onError),
  };
}
