import { setImmediate as nextTurn } from "node:timers/promises";
import { DocumentError } from "../document/document-error.js";
import { frontmatterParsersNeeded } from "../frontmatter/frontmatter-parsers-needed.js";
import { parseMarkdownDocument } from "../document/parse-markdown-document.js";
import type { ParsedDocument } from "../document/parsed-document.js";
import type { ParsePool } from "./parse-pool.js";
import { parseTimeLimitMs, parseTimeLimitReason } from "./parse-time-limit.js";
import { loadFrontmatterParsers } from "../frontmatter/read-frontmatter.js";
import type { ResolvedIngestOptions } from "../options/resolve-ingest-options.js";
import { runWithDeadline } from "./run-with-deadline.js";

/**
 * How long a file may parse on the calling thread before it moves to a worker: short, so a
 * signal waits at most this long. A normal file parses in milliseconds.
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
 * none: a small file directly (`directParseChars`), a larger one under a deadline. A parse
 * still running after `sliceMs` (default `callingThreadSliceMs`) is stopped, signals are
 * served, and the file goes to a worker (`workers()`: the pool, or undefined where no worker
 * can run), which parses it under its time limit (`parseTimeLimitMs`). Without a worker it
 * gets the rest of that limit on the calling thread, still under a deadline; signals then wait.
 */
export async function parseOnCallingThread(
  text: string,
  input: {
    source: string;
    options: ResolvedIngestOptions;
    signal: AbortSignal | undefined;
    workers: () => ParsePool | undefined;
    sliceMs?: number;
  },
): Promise<ParsedDocument> {
  const { source, options, signal } = input;
  const parse = () => parseMarkdownDocument(text, { source, options });
  if (text.length < directParseChars) return parse();
  const sliceMs = input.sliceMs ?? callingThreadSliceMs;
  // A module load that the deadline stops halfway stays broken: load what the parse may need first.
  if (frontmatterParsersNeeded(text)) loadFrontmatterParsers();
  const first = runWithDeadline(parse, sliceMs);
  if (first.kind === "done") return first.value;
  await nextTurn();
  signal?.throwIfAborted();
  const pool = input.workers();
  if (pool !== undefined) return pool.parse(text, source);
  const limit = parseTimeLimitMs(text.length);
  const second = runWithDeadline(parse, Math.max(1, limit - sliceMs));
  if (second.kind === "done") return second.value;
  throw new DocumentError({ source, reason: parseTimeLimitReason(limit, text.length) });
}
