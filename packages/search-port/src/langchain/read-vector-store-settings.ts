import { ConfigurationError, parseOptions } from "@lookup-knowledge/core";
import type { z } from "zod";
import type { VectorStoreProfile } from "./vector-store-profile.js";
import { vectorStoreProfiles } from "./vector-store-profiles.js";
import { vectorStoreSearchPortOptionsSchema } from "./vector-store-search-port-options.js";
import type { VectorStoreSearchPortOptions } from "./vector-store-search-port-options.js";

/** The options of `createVectorStoreSearchPort` as the schema gives them (defaults filled in), with the profile picked. */
export interface VectorStoreSettings extends Omit<z.output<typeof vectorStoreSearchPortOptionsSchema>, "profile"> {
  profile: VectorStoreProfile;
}

/**
 * Reads the options of `createVectorStoreSearchPort` through zod (`parseOptions`) and picks
 * the profile: the one given, or the built-in one for `vectorStore._vectorstoreType()`. A bad
 * option is a `ConfigurationError` whose key is the option's name (`batchSize`).
 */
export function readVectorStoreSettings(input: VectorStoreSearchPortOptions): VectorStoreSettings {
  const options = parseOptions(vectorStoreSearchPortOptionsSchema, input, "");
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
  return { ...options, profile };
}
