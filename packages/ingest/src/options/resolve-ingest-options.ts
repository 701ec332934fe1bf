import { ConfigurationError, parseOptions } from "@lookup-knowledge/core";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import type { IngestOptions } from "./ingest-options.js";
import { readPlainIngestOptions } from "./read-plain-ingest-options.js";

/** `IngestOptions` with every default filled in. */
export type ResolvedIngestOptions = Required<IngestOptions>;

const defaults: ResolvedIngestOptions = {
  include: ["**/*.md", "**/*.mdx"],
  exclude: ["**/node_modules/**", "**/.*/**"],
  categoryField: "category",
  entityFields: ["entities", "aliases", "tags"],
  keywordFields: ["keywords"],
  descriptionFields: ["description", "summary"],
  maxChunkChars: 1500,
  overlapChars: 150,
  followSymlinks: false,
};

/** Built, and zod loaded, only for options that `readPlainIngestOptions` does not read. */
export const ingestOptionsSchema = schemaOnDemand((z) => {
  const nonEmptyString = z.string().trim().min(1, "must not be blank");
  return z
    .object({
      include: z.array(nonEmptyString).min(1, "needs at least one pattern"),
      exclude: z.array(nonEmptyString),
      categoryField: nonEmptyString,
      entityFields: z.array(nonEmptyString),
      keywordFields: z.array(nonEmptyString),
      descriptionFields: z.array(nonEmptyString),
      maxChunkChars: z.number().int("must be an integer").min(200, "must be at least 200"),
      overlapChars: z.number().int("must be an integer").min(0, "must not be negative"),
      followSymlinks: z.boolean("must be true or false"),
    })
    .strict();
});

const cache = new WeakMap<IngestOptions, ResolvedIngestOptions>();

/**
 * Fills in the defaults and validates the options (plainly valid ones without zod:
 * `readPlainIngestOptions`). Throws `ConfigurationError` naming the
 * option and its value when one is refused.
 */
export function resolveIngestOptions(options: IngestOptions | undefined): ResolvedIngestOptions {
  if (options === undefined) return defaults;
  const cached = cache.get(options);
  if (cached !== undefined) return cached;
  const merged: Record<string, unknown> = { ...defaults };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) merged[key] = value;
  const resolved = readPlainIngestOptions(merged) ?? parseOptions(ingestOptionsSchema(), merged, "");
  if (resolved.overlapChars * 2 > resolved.maxChunkChars) {
    throw new ConfigurationError({
      key: "overlapChars",
      value: resolved.overlapChars,
      reason: `must be at most half of maxChunkChars (${resolved.maxChunkChars})`,
    });
  }
  cache.set(options, resolved);
  return resolved;
}
