import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { z } from "zod";

/** An option that takes a LangChain `Embeddings`: anything with `embedQuery` and `embedDocuments`. */
export const embeddingsSchema = z.custom<EmbeddingsInterface>(
  (value) =>
    value !== null &&
    typeof value === "object" &&
    typeof (value as EmbeddingsInterface).embedQuery === "function" &&
    typeof (value as EmbeddingsInterface).embedDocuments === "function",
  { error: "expected a LangChain Embeddings (embedQuery and embedDocuments)" },
);
