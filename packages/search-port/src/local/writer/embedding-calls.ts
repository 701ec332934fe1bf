import type { LocalEmbeddings } from "./embedded-row.js";

/**
 * The embedder calls of a writer's vectors asked for ahead (`embedDocumentRows` when the
 * embedder has it, else `embedDocuments`): a call needed now is made
 * at once; of the calls asked ahead at most `concurrency` run at a time (a service may limit
 * its rate), the next waiting until one ends.
 */
export class EmbeddingCalls {
  /** Calls asked ahead, waiting for one of the running ones to end. */
  private waiting: Array<() => void> = [];
  private running = 0;

  constructor(
    private readonly embeddings: LocalEmbeddings,
    private readonly concurrency: number,
  ) {}

  /** One call, made now; its rejection is handled wherever it is awaited. */
  now(texts: string[]): Promise<unknown> {
    let answer: Promise<unknown>;
    try {
      const { embeddings } = this;
      // Typed rows when the embedder can give them (no copy into number[] on either side).
      const rows =
        typeof embeddings.embedDocumentRows === "function" ? embeddings.embedDocumentRows(texts) : embeddings.embedDocuments(texts);
      answer = Promise.resolve(rows);
    } catch (error) {
      answer = Promise.reject(error);
    }
    answer.catch(() => undefined);
    return answer;
  }

  /** A call asked ahead: made now, or once fewer than `concurrency` run. */
  ahead(texts: string[]): Promise<unknown> {
    const answer = new Promise<unknown>((resolve, reject) => {
      const go = (): void => {
        this.running += 1;
        const asked = this.now(texts);
        asked.then(resolve, reject);
        const release = () => this.release();
        asked.then(release, release);
      };
      if (this.running < this.concurrency) go();
      else this.waiting.push(go);
    });
    answer.catch(() => undefined);
    return answer;
  }

  /** Drops the calls asked ahead that have not started: they are never made. */
  dropWaiting(): void {
    this.waiting = [];
  }

  private release(): void {
    this.running -= 1;
    this.waiting.shift()?.();
  }
}
