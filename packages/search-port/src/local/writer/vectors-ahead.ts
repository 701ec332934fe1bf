import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { throwIfAborted } from "../../internal/abort.js";

/** A record whose vector is wanted: its id and the text that is embedded. */
export interface TextToEmbed {
  id: string;
  text: string;
}

/** Vectors asked for ahead of an upsert, by record id. */
export interface VectorsAhead {
  /**
   * Asks the embedder for these records' vectors (one `embedDocuments` call, started at once
   * unless `concurrency` calls asked ahead are still running: then when one ends), so an
   * embedder that works elsewhere (another thread, a service) does so while the caller
   * prepares more. Past `limit` records held, the oldest are let go (their upsert asks again).
   */
  start(entries: readonly TextToEmbed[]): void;
  /**
   * The vectors of `entries`, in order: those asked for ahead (same id, same text), and the
   * rest asked for at once, before this returns, in one call. A batch asked for ahead that
   * failed is asked for again (unless `signal` aborted), so its error, if it repeats, is the
   * one the caller sees. `check` gets each answer and the number of texts it was for, and
   * returns the vectors or throws.
   */
  vectorsFor(
    entries: readonly TextToEmbed[],
    check: (vectors: unknown, count: number) => number[][],
    signal?: AbortSignal,
  ): Promise<number[][]>;
  /** Lets go of everything held ahead; calls not started yet are not made. */
  clear(): void;
}

interface Started {
  text: string;
  /** The call it was asked in, its place and the number of texts there. */
  batch: Promise<unknown>;
  position: number;
  count: number;
}

/** At most this many records' vectors are held ahead of their upsert (about 25 MB at 356 dimensions). */
export const vectorsAheadLimit = 8192;
/** At most this many calls asked ahead run at once (a service may limit its rate). */
export const vectorsAheadConcurrency = 4;

export function createVectorsAhead(
  embeddings: EmbeddingsInterface,
  limit = vectorsAheadLimit,
  concurrency = vectorsAheadConcurrency,
): VectorsAhead {
  const started = new Map<string, Started>();
  /** Calls asked ahead, waiting for one of the running ones to end. */
  let waiting: Array<() => void> = [];
  let running = 0;

  /** One `embedDocuments` call; its rejection is handled wherever it is awaited. */
  function ask(texts: string[]): Promise<unknown> {
    let answer: Promise<unknown>;
    try {
      answer = Promise.resolve(embeddings.embedDocuments(texts));
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.catch(() => undefined);
    return answer;
  }

  /** A call asked ahead: started now, or once fewer than `concurrency` run. */
  function askAhead(texts: string[]): Promise<unknown> {
    const answer = new Promise<unknown>((resolve, reject) => {
      const go = (): void => {
        running += 1;
        const asked = ask(texts);
        asked.then(resolve, reject);
        asked.then(release, release);
      };
      if (running < concurrency) go();
      else waiting.push(go);
    });
    answer.catch(() => undefined);
    return answer;
  }

  function release(): void {
    running -= 1;
    waiting.shift()?.();
  }

  return {
    start(entries) {
      const wanted = entries.filter((entry) => started.get(entry.id)?.text !== entry.text);
      if (wanted.length === 0 || wanted.length > limit) return;
      // The oldest go first (a Map keeps its insertion order).
      for (const id of started.keys()) {
        if (started.size + wanted.length <= limit) break;
        started.delete(id);
      }
      const batch = askAhead(wanted.map((entry) => entry.text));
      for (const [position, entry] of wanted.entries()) started.set(entry.id, { text: entry.text, batch, position, count: wanted.length });
    },

    clear() {
      started.clear();
      waiting = [];
    },

    async vectorsFor(entries, check, signal) {
      const vectors = new Array<number[]>(entries.length);
      const now: number[] = [];
      const batches = new Map<Promise<unknown>, { count: number; uses: { position: number; index: number }[] }>();
      entries.forEach((entry, index) => {
        const ahead = started.get(entry.id);
        if (ahead !== undefined) started.delete(entry.id);
        if (ahead === undefined || ahead.text !== entry.text) {
          now.push(index);
          return;
        }
        const group = batches.get(ahead.batch) ?? { count: ahead.count, uses: [] };
        group.uses.push({ position: ahead.position, index });
        batches.set(ahead.batch, group);
      });
      const textsOf = (indexes: number[]): string[] => indexes.map((index) => (entries[index] as TextToEmbed).text);
      const asked = now.length === 0 ? undefined : ask(textsOf(now));
      const again: number[] = [];
      for (const [batch, { count, uses }] of batches) {
        let answer: number[][];
        try {
          answer = check(await batch, count);
        } catch {
          for (const use of uses) again.push(use.index);
          continue;
        }
        for (const use of uses) vectors[use.index] = answer[use.position] as number[];
      }
      if (again.length > 0) throwIfAborted(signal);
      const retried = again.length === 0 ? undefined : ask(textsOf(again));
      const fill = async (indexes: number[], answer: Promise<unknown> | undefined): Promise<void> => {
        if (answer === undefined) return;
        const rows = check(await answer, indexes.length);
        indexes.forEach((index, position) => {
          vectors[index] = rows[position] as number[];
        });
      };
      await fill(now, asked);
      await fill(again, retried);
      return vectors;
    },
  };
}
