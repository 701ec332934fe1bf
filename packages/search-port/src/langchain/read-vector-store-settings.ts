import { ConfigurationError, parseOptions } from "@lookup-knowledge/core";
import type { VectorStoreInterface } from "@langchain/core/vectorstores";
import { z } from "zod";
import { integerFrom } from "../internal/integer-from.js";
import { metadataKeySchema } from "../internal/metadata-key-schema.js";
import { objectWithMethods } from "../internal/object-with-methods.js";
import type { VectorStoreProfile } from "./vector-store-profile.js";
import { vectorStoreProfiles } from "./vector-store-profiles.js";
import type { VectorStoreSearchPortOptions } from "./vector-store-search-port.js";

const defaultIdKey = "recordId";
const defaultBatchSize = 100;

/** The options of `createVectorStoreSearchPort`, checked and with their defaults. */
export interface VectorStoreSettings {
  vectorStore: VectorStoreInterface;
  profile: VectorStoreProfile;
  idKey: string;
  batchSize: number;
}

const optionsSchema = z.object(
  {
    vectorStore: objectWithMethods<VectorStoreInterface>(
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
    idKey: metadataKeySchema("recordId").optional(),
    batchSize: integerFrom(1, 10_000).optional(),
  },
  { error: "expected an options object" },
);

/**
 * Reads the options of `createVectorStoreSearchPort` through zod (`parseOptions`) and picks
 * the profile: the one given, or the built-in one for `vectorStore._vectorstoreType()`. A bad
 * option is a `ConfigurationError` whose key is the option's name (`batchSize`).
 */
export function readVectorStoreSettings(input: VectorStoreSearchPortOptions): VectorStoreSettings {
  const options = parseOptions(optionsSchema, input, "");
  const { vectorStore } = options;
  const storeType = typeof vectorStore._vectorstoreType === "function" ? vectorStore._vectorstoreType() : "unknown";
  const profile = options.profile ?? vectorStoreProfiles[storeType];
  if (profile === undefined) {
    throw new ConfigurationError({
      key: "profile",
      value: storeType,
      reason: `no built-in profile for vector store type ${JSON.stringify(storeType)} (built in: ${Object.keys(vectorStoreProfiles).join(", ")}); pass profile: { name, score, translateFilter }`,
    });
  }
  return { vectorStore, profile, idKey: options.idKey ?? defaultIdKey, batchSize: options.batchSize ?? defaultBatchSize };
}
