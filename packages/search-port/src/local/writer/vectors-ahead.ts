import { throwIfAborted } from "../../internal/abort.js";
import type { EmbeddedRow, LocalEmbeddings } from "./embedded-row.js";
import { EmbeddingCalls } from "./embedding-calls.js";

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
   * returns the vectors or throws. Rows are passed on as the embedder gave them (typed or not).
   */
  vectorsFor(
    entries: readonly TextToEmbed[],
    check: (vectors: unknown, count: number) => EmbeddedRow[],
    signal?: AbortSignal,
  ): Promise<EmbeddedRow[]>;
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
  embeddings: LocalEmbeddings,
  limit = vectorsAheadLimit,
  concurrency = vectorsAheadConcurrency,
): VectorsAhead {
  const calls = new EmbeddingCalls(embeddings, concurrency);
  const started = new Map<string, Started>();
  return {
    start(entries) {
      const wanted = entries.filter((entry) => started.get(entry.id)?.text !== entry.text);
      if (wanted.length === 0 || wanted.length > limit) return;
      // The oldest go first (a Map keeps its insertion order).
      for (const id of started.keys()) {
        if (started.size + wanted.length <= limit) break;
        started.delete(id);
      }
      const batch = calls.ahead(wanted.map((entry) => entry.text));
      for (const [position, entry] of wanted.entries()) started.set(entry.id, { text: entry.text, batch, position, count: wanted.length });
    },

    clear() {
      started.clear();
      calls.dropWaiting();
    },

    vectorsFor(entries, check, signal) {
      return takeVectors(started, calls, entries, check, signal);
    },
  };
}

/**
 * `VectorsAhead.vectorsFor`: the vectors of `entries`, those asked for ahead taken out of
 * `started` (asked again when their call failed), the rest asked for now in one call.
 */
async function takeVectors(
  started: Map<string, Started>,
  calls: EmbeddingCalls,
  entries: readonly TextToEmbed[],
  check: (vectors: unknown, count: number) => EmbeddedRow[],
  signal: AbortSignal | undefined,
): Promise<EmbeddedRow[]> {
  const vectors = new Array<EmbeddedRow>(entries.length);
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
  const asked = now.length === 0 ? undefined : calls.now(textsOf(now));
  const again: number[] = [];
  for (const [batch, { count, uses }] of batches) {
    let answer: EmbeddedRow[];
    try {
      answer = check(await batch, count);
    } catch {
      for (const use of uses) again.push(use.index);
      continue;
    }
    for (const use of uses) vectors[use.index] = answer[use.position] as EmbeddedRow;
  }
  if (again.length > 0) throwIfAborted(signal);
  const retried = again.length === 0 ? undefined : calls.now(textsOf(again));
  const fill = async (indexes: number[], answer: Promise<unknown> | undefined): Promise<void> => {
    if (answer === undefined) return;
    const rows = check(await answer, indexes.length);
    indexes.forEach((index, position) => {
      vectors[index] = rows[position] as EmbeddedRow;
    });
  };
  await fill(now, asked);
  await fill(again, retried);
  return vectors;
}
