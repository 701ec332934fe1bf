// The worker of `EmbeddingThread`: an offline embedder of the options it was started with,
// answering each request with the vectors in one buffer, handed over (not copied).
import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "@lookup-knowledge/core";
import type { EmbeddingRequest, EmbeddingResponse, EmbeddingThreadOptions } from "./embedding-thread.js";
import { OfflineEmbeddings } from "./offline-embeddings.js";

const options = workerData as EmbeddingThreadOptions;
// This thread's own embedder embeds here (`thread: false`), never on a thread of its own.
const embeddings = new OfflineEmbeddings({ ...options, thread: false });

parentPort?.on("message", (request: EmbeddingRequest) => {
  let response: EmbeddingResponse;
  try {
    const vectors = embeddings.embedDocumentsInto(request.texts, request.precision);
    response = { id: request.id, vectors };
    parentPort?.postMessage(response, [vectors.buffer as ArrayBuffer]);
  } catch (error) {
    response = { id: request.id, error: errorMessage(error) };
    parentPort?.postMessage(response);
  }
});
