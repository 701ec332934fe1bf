import { OfflineEmbeddings } from "./offline-embeddings.js";
import type { OfflineEmbeddingsOptions } from "./offline-embeddings.js";

/** Creates the offline default embedder; the same as `new OfflineEmbeddings(options)`. */
export function createOfflineEmbeddings(options: OfflineEmbeddingsOptions = {}): OfflineEmbeddings {
  return new OfflineEmbeddings(options);
}
