import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { z } from "zod";
import { objectWithMethods } from "./object-with-methods.js";

/** An option that takes a LangChain `Embeddings`: anything with `embedQuery` and `embedDocuments`. */
export const embeddingsSchema = objectWithMethods<EmbeddingsInterface>(
  z,
  ["embedQuery", "embedDocuments"],
  "expected a LangChain Embeddings (embedQuery and embedDocuments)",
);
