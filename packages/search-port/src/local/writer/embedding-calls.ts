import type { EmbeddingsInterface } from "@langchain/core/embeddings";

/**
 * The `embedDocuments` calls of a writer's vectors asked for ahead: a call needed now is made
 * at once; of the calls asked ahead at most `concurrency` run at a time (a service may limit
 * its rate), the next waiting until one ends.
 */
export class EmbeddingCalls {
  /** Calls asked ahead, waiting for one of the running ones to end. */
  private waiting: Array<() => void> = [];
  private running = 0;

  constructor(
    private readonly embeddings: EmbeddingsInterface,
    private readonly concurrency: number,
  ) {}

  /** One `embedDocuments` call, made now; its rejection is handled wherever it is awaited. */
  now(texts: string[]): Promise<unknown> {
    let answer: Promise<unknown>;
    try {
      answer = Promise.resolve(this.embeddings.embedDocuments(texts));
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
