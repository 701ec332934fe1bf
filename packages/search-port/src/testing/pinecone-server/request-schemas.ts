import { z } from "zod";

const metadataValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())], {
  error: "metadata values must be strings, numbers, booleans or lists of strings",
});
/** Metadata as Pinecone accepts it: strings, numbers, booleans and lists of strings. */
export const metadataSchema = z.record(z.string(), metadataValue);
const sparseSchema = z
  .object({ indices: z.array(z.number().int().nonnegative().max(0xffff_ffff)), values: z.array(z.number()) })
  .refine((sparse) => sparse.indices.length === sparse.values.length, "sparse indices and values differ in length")
  .refine((sparse) => new Set(sparse.indices).size === sparse.indices.length, "sparse indices must be unique");
const vectorSchema = z.object({
  id: z.string().min(1, "a vector id may not be empty"),
  values: z.array(z.number()).optional(),
  sparseValues: sparseSchema.optional(),
  metadata: metadataSchema.optional(),
});

/** `POST /vectors/upsert`. */
export const upsertSchema = z.object({ vectors: z.array(vectorSchema), namespace: z.string().optional() });
/** `POST /query`. */
export const querySchema = z.object({
  namespace: z.string().optional(),
  topK: z.number().int().min(1).max(10_000),
  filter: z.record(z.string(), z.unknown()).optional(),
  includeValues: z.boolean().optional(),
  includeMetadata: z.boolean().optional(),
  vector: z.array(z.number()).optional(),
  sparseVector: sparseSchema.optional(),
  id: z.string().optional(),
});
/** `POST /vectors/delete`. */
export const deleteSchema = z.object({
  ids: z.array(z.string()).optional(),
  deleteAll: z.boolean().optional(),
  namespace: z.string().optional(),
  filter: z.record(z.string(), z.unknown()).optional(),
});
/** `POST /describe_index_stats`. */
export const statsSchema = z.object({ filter: z.record(z.string(), z.unknown()).optional() });
/** `POST /records/namespaces/{namespace}/search`. */
export const searchRecordsSchema = z.object({
  query: z.object({
    top_k: z.number().int().min(1).max(10_000),
    inputs: z.object({ text: z.string() }),
    filter: z.record(z.string(), z.unknown()).optional(),
  }),
  fields: z.array(z.string()).optional(),
});

export type UpsertBody = z.infer<typeof upsertSchema>;
export type QueryBody = z.infer<typeof querySchema>;
export type DeleteBody = z.infer<typeof deleteSchema>;
export type StatsBody = z.infer<typeof statsSchema>;
export type SearchRecordsBody = z.infer<typeof searchRecordsSchema>;
