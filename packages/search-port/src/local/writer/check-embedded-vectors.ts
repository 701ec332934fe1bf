import { EmbedderMismatchError } from "../errors/embedder-mismatch-error.js";
import type { EmbedderIdentity } from "../port/local-search-port.js";

/**
 * The vectors of one `embedDocuments` answer for `count` texts, checked against the index's
 * embedder: one vector per text, each of its dimension. Otherwise `EmbedderMismatchError`,
 * saying what came back.
 */
export function checkEmbeddedVectors(answer: unknown, count: number, directory: string, embedder: EmbedderIdentity): number[][] {
  const mismatch = (reason: string): EmbedderMismatchError =>
    new EmbedderMismatchError({ directory, indexEmbedder: embedder, givenEmbedder: embedder, reason });
  if (!Array.isArray(answer) || answer.length !== count) {
    throw mismatch(`embedDocuments returned ${Array.isArray(answer) ? answer.length : "no"} vectors for ${count} texts`);
  }
  const wrong = answer.find((vector: unknown) => !Array.isArray(vector) || vector.length !== embedder.dimension);
  if (wrong !== undefined) {
    throw mismatch(
      `embedDocuments returned a vector of ${Array.isArray(wrong) ? wrong.length : "no"} dimensions, not ${embedder.dimension}`,
    );
  }
  return answer as number[][];
}
