import { EmbedderMismatchError } from "../errors/embedder-mismatch-error.js";
import type { LocalPortSettings } from "../port/read-local-port-settings.js";

/** The query's embedding as `embedQuery` returned it; throws `EmbedderMismatchError` unless it has the embedder's dimension. */
export function checkQueryVector(vector: number[], settings: LocalPortSettings): number[] {
  if (!Array.isArray(vector) || vector.length !== settings.embedder?.dimension) {
    throw new EmbedderMismatchError({
      directory: settings.directory,
      indexEmbedder: settings.embedder,
      givenEmbedder: settings.embedder,
      reason: `embedQuery returned a vector of ${Array.isArray(vector) ? vector.length : "no"} dimensions`,
    });
  }
  return vector;
}
