import { readFile } from "node:fs/promises";
import { errorMessage } from "@lookup-knowledge/core";
import { z } from "zod";
import { IngestError } from "./ingest-error.js";
import type { IngestManifest } from "./ingest-manifest.js";
import { ingestManifestPath } from "./ingest-manifest-file.js";

const entrySchema = z.object({
  id: z.string(),
  source: z.string(),
  title: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  domain: z.string().optional(),
  entities: z.array(z.string()).optional(),
});

const manifestSchema = z.object({
  version: z.literal(1),
  root: z.string().optional(),
  optionsHash: z.string(),
  documents: z.record(
    z.string(),
    z.object({
      source: z.string(),
      hash: z.string(),
      chunkCount: z.number().int().min(0),
      entry: entrySchema,
    }),
  ),
  noContent: z.record(z.string(), z.object({ source: z.string(), hash: z.string() })).optional(),
});

/**
 * Reads `ingest-manifest.json` from the data directory. Resolves to `undefined` when the
 * file does not exist; throws `IngestError` (code `invalid_ingest_manifest`, naming the
 * path) when it cannot be read or is not a valid manifest.
 */
export async function readIngestManifest(directory: string): Promise<IngestManifest | undefined> {
  const path = ingestManifestPath(directory);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new IngestError({
      code: "invalid_ingest_manifest",
      path,
      reason: `Cannot read the ingest manifest (${errorMessage(cause)})`,
      cause,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new IngestError({
      code: "invalid_ingest_manifest",
      path,
      reason: `The ingest manifest is not valid JSON (${errorMessage(cause)}); delete it to re-ingest everything`,
      cause,
    });
  }
  const result = manifestSchema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? "(root)" : issue.path.join(".");
    throw new IngestError({
      code: "invalid_ingest_manifest",
      path,
      reason: `The ingest manifest is invalid at ${where} (${issue?.message ?? "unknown problem"}); delete it to re-ingest everything`,
    });
  }
  return result.data;
}
