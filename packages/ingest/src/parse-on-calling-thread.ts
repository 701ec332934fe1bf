import { setImmediate as nextTurn } from "node:timers/promises";
import { DocumentError } from "./document-error.js";
import { parseMarkdownDocument } from "./parse-markdown-document.js";
import type { ParsedDocument } from "./parsed-document.js";
import { parseTimeLimitMs, parseTimeLimitReason, type ParsePool } from "./parse-pool.js";
import type { ResolvedIngestOptions } from "./resolve-ingest-options.js";
import { runWithDeadline, type DeadlineOutcome } from "./run-with-deadline.js";

/**
 * How long a file may parse on the calling thread before it moves to a worker: short, so a
 * signal other than SIGINT (which stops the parse at once) waits at most this long. A normal
 * file parses in milliseconds.
 */
export const callingThreadSliceMs = 1_000;

/**
 * Below this many characters a file is parsed directly, without the deadline: running under
 * one slows a cold parse (APISIX en: 340 -> 450 ms for its 196 files, 15 of them past this
 * size, 355 ms with it), and with the nesting bounds the slowest input known costs about
 * 10 us a character (thousands of headings, each parsed for its text), 0.3 s at this size.
 */
export const directParseChars = 32 * 1024;

/**
 * Parses a file on the calling thread, without the cost of a worker for the files that need
 * none: a small file directly (`directParseChars`), a larger one under a deadline. A parse still running after `callingThreadSliceMs` is stopped and
 * handed to a worker (`workers()`, the pool or undefined where no worker can run) for the
 * rest of its time limit (`parseTimeLimitMs`); without a worker it gets that time here,
 * still under a deadline. SIGINT stops it at once: the ingest then stops as the signal
 * says, or the file is listed as interrupted. Signals are served between the two tries.
 */
export async function parseOnCallingThread(
  text: string,
  input: { source: string; options: ResolvedIngestOptions; signal: AbortSignal | undefined; workers: () => ParsePool | undefined },
): Promise<ParsedDocument> {
  const { source, options, signal } = input;
  const parse = () => parseMarkdownDocument(text, { source, options });
  if (text.length < directParseChars) return parse();
  const first = await settle(runWithDeadline(parse, callingThreadSliceMs), input);
  if (first !== undefined) return first;
  await nextTurn();
  signal?.throwIfAborted();
  const pool = input.workers();
  if (pool !== undefined) return pool.parse(text, source);
  const limit = parseTimeLimitMs(text.length);
  const second = await settle(runWithDeadline(parse, Math.max(1, limit - callingThreadSliceMs)), input);
  if (second !== undefined) return second;
  throw new DocumentError({ source, reason: parseTimeLimitReason(limit, text.length) });
}

/** The document, or undefined when the parse timed out; an interrupted parse throws. */
async function settle(
  outcome: DeadlineOutcome<ParsedDocument>,
  input: { source: string; signal: AbortSignal | undefined },
): Promise<ParsedDocument | undefined> {
  if (outcome.kind === "done") return outcome.value;
  if (outcome.kind === "timed_out") return undefined;
  // The process's SIGINT handlers have run: stop as they decided.
  input.signal?.throwIfAborted();
  throw new DocumentError({ source: input.source, reason: "parsing was interrupted (SIGINT)" });
}
