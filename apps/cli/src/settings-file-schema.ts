import { z } from "zod";

// The schema of lookup-knowledge.config.json, in a module of its own: cli-config.ts imports it
// only when there is a settings file to check, so a command run without one loads no zod
// from here (issue 36 item 5).

const terms = z.array(z.string().min(1));
const ingestSchema = z.strictObject({
  include: terms.optional(),
  exclude: terms.optional(),
  categoryField: z.string().min(1).optional(),
  entityFields: terms.optional(),
  keywordFields: terms.optional(),
  maxChunkChars: z.number().int().min(200).optional(),
  overlapChars: z.number().int().min(0).optional(),
});

/** `data`, `store`, `ingest` and `mcp` checked (the last two as given); every other key is kept for the flat settings. */
export const settingsFileSchema = z.looseObject({
  data: z.string().min(1).optional(),
  store: z.unknown().optional(),
  ingest: ingestSchema.optional(),
  mcp: z.unknown().optional(),
});
