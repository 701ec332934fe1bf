import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { objectWithMethods } from "./object-with-methods.js";

/** An option that takes a LangChain `Embeddings`: anything with `embedQuery` and `embedDocuments`. */
export const embeddingsSchema = objectWithMethods<EmbeddingsInterface>(
  ["embedQuery", "embedDocuments"],
  "expected a LangChain Embeddings (embedQuery and embedDocuments)",
);
