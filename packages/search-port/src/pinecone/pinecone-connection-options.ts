import { z } from "zod";
import { pineconeSearchPortOptionsSchema } from "./pinecone-search-port-options.js";
import type { PineconeSearchPortOptions } from "./pinecone-search-port-options.js";

/**
 * Where a Pinecone index is and how to reach it, for `connectPineconeSearchPort`. Checked by
 * `pineconeConnectionOptionsSchema`, whose input type is this one (the type test in
 * `pinecone-search-port-options.test.ts` fails when the two differ).
 */
export interface PineconeConnectionOptions extends Omit<PineconeSearchPortOptions, "index" | "indexDescription"> {
  /** The API key. Read it from the environment in your code; the adapter never logs it. */
  apiKey: string;
  /** The index name: its description (metric, host, field map) is fetched with `describeIndex`. */
  indexName?: string | undefined;
  /** The index host (`https://...pinecone.io`); with `metric`, no control-plane call is made. */
  host?: string | undefined;
  /** The control-plane URL, for a Pinecone-compatible endpoint other than api.pinecone.io (a local test server). */
  controllerHostUrl?: string | undefined;
}

const url = (reason: string) => z.string({ error: reason }).regex(/^https?:\/\/\S+$/, { error: reason });

/**
 * The options of `connectPineconeSearchPort`: those of the port but the index (the client is
 * made from these), and where the index is. `apiKey` is checked by hand before this schema
 * sees it, so that a refused key is never shown.
 */
export const pineconeConnectionOptionsSchema = pineconeSearchPortOptionsSchema.omit({ index: true, indexDescription: true }).extend({
  apiKey: z.string(),
  indexName: z
    .string({ error: "expected the name of a Pinecone index" })
    .refine((name) => name.trim() !== "", { error: "expected the name of a Pinecone index" })
    .optional(),
  host: url("expected the index host as a URL, https://<index>-<project>.svc.<region>.pinecone.io").optional(),
  controllerHostUrl: url("expected a URL").optional(),
});
