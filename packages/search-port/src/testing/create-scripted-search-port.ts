import type { SearchHit } from "@lookup-knowledge/core";
import type { SearchRequest } from "../search-request.js";
import { abortReason, delay, raceWithAbort, untilAborted } from "../internal/abort.js";
import type { ScriptedAnswer } from "./scripted-answer.js";
import type { ScriptedSearchPort } from "./scripted-search-port.js";

/**
 * A port for tests that answers from a script.
 *
 * - An array: call `i` (0 first) gets `script[i]`; past the end the last answer repeats, and
 *   an empty script answers `[]`.
 * - A function: called with the request and the call number (0 first); it may return the
 *   answer or a promise of it, and its own throw or rejection becomes the search's.
 *
 * Every request is recorded before it is answered (see `requests`). When the request's
 * signal is already aborted, or aborts while the answer is delayed, hanging or being
 * computed, the search rejects at once with `signal.reason`.
 */
export function createScriptedSearchPort(
  script: ScriptedAnswer[] | ((request: SearchRequest, call: number) => ScriptedAnswer | Promise<ScriptedAnswer>),
): ScriptedSearchPort {
  const requests: SearchRequest[] = [];
  let calls = 0;

  async function answer(request: SearchRequest, call: number): Promise<SearchHit[]> {
    const signal = request.signal;
    if (signal?.aborted) throw abortReason(signal);
    const scripted =
      typeof script === "function"
        ? await raceWithAbort(
            Promise.resolve().then(() => script(request, call)),
            signal,
          )
        : (script[Math.min(call, script.length - 1)] ?? []);
    if (Array.isArray(scripted)) return scripted;
    if (scripted.hang === true) await untilAborted(signal);
    if (scripted.delayMs !== undefined && scripted.delayMs > 0) await delay(scripted.delayMs, signal);
    if ("throws" in scripted) throw scripted.throws;
    return ("hits" in scripted ? scripted.hits : []) as SearchHit[];
  }

  return {
    get requests(): SearchRequest[] {
      return requests;
    },
    get calls(): number {
      return calls;
    },
    search(request: SearchRequest): Promise<SearchHit[]> {
      const call = calls;
      calls += 1;
      requests.push(recordedCopy(request));
      return answer(request, call);
    },
  };
}

function recordedCopy(request: SearchRequest): SearchRequest {
  const copy: SearchRequest = { ...request };
  if (request.filter !== undefined) copy.filter = structuredClone(request.filter);
  if (request.scopeFilter !== undefined) copy.scopeFilter = structuredClone(request.scopeFilter);
  return copy;
}
