import type { SearchHit } from "@lookup-knowledge/core";

/**
 * What a scripted port answers to one request: the hits themselves, or an object that
 * describes the answer.
 *
 * - `hits`: returned as given, never checked or copied, so a test can hand the pipeline
 *   malformed output (`{ hits: [{ content: 42 }] }`, `{ hits: "nonsense" }`). Absent: `[]`.
 * - `throws`: the search rejects with this value (after `delayMs`, when given).
 * - `delayMs`: wait this long before answering.
 * - `hang: true`: never answer; the search only settles when the request's signal aborts.
 */
export type ScriptedAnswer =
  | SearchHit[]
  | {
      hits?: unknown;
      throws?: unknown;
      delayMs?: number;
      hang?: boolean;
    };
