import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { z } from "zod";
import { integerFrom } from "../internal/integer-from.js";
import { metadataKeySchema } from "../internal/metadata-key-schema.js";
import { objectWithMethods } from "../internal/object-with-methods.js";
import type { VectorStoreProfile } from "./vector-store-profile.js";

/**
 * The options of `createVectorStoreSearchPort`. They are checked by
 * `vectorStoreSearchPortOptionsSchema`, whose input type is this one: the type test in
 * `vector-store-search-port-options.test.ts` fails when the two differ. The interface is
 * written out because a type inferred from a schema loses its documentation in the published
 * `.d.ts`.
 */
export interface VectorStoreSearchPortOptions {
  /** Any LangChain `VectorStore`, configured with its embeddings. */
  vectorStore: VectorStoreInterface;
  /** How to talk to this kind of store. Default: the built-in profile for `vectorStore._vectorstoreType()`. */
  profile?: VectorStoreProfile | undefined;
  /**
   * The metadata key that carries a record's id (default `"recordId"`), for stores that
   * assign ids of their own (LibSQL uses row ids). It is removed from returned metadata.
   */
  idKey?: string | undefined;
  /** Records per `addDocuments` call (default 100). */
  batchSize?: number | undefined;
}

/**
 * Each option of `createVectorStoreSearchPort` checked, with its default; the profile's
 * default depends on the store, so `readVectorStoreSettings` picks it after parsing.
 */
export const vectorStoreSearchPortOptionsSchema = z.object(
  {
    vectorStore: objectWithMethods<VectorStoreInterface>(
      z,
      ["similaritySearchWithScore", "addDocuments"],
      "expected a LangChain VectorStore (similaritySearchWithScore and addDocuments)",
    ),
    profile: z
      .custom<VectorStoreProfile>(
        (value) =>
          value !== null &&
          typeof value === "object" &&
          typeof (value as VectorStoreProfile).translateFilter === "function" &&
          (typeof (value as VectorStoreProfile).score === "function" || typeof (value as VectorStoreProfile).score === "string"),
        { error: "a profile needs score and translateFilter" },
      )
      .optional(),
    idKey: metadataKeySchema("recordId").default("recordId"),
    batchSize: integerFrom(1, 10_000).default(100),
  },
  { error: "expected an options object" },
);
