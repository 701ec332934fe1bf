import { ConfigurationError, parseOptions } from "@lookup-knowledge/core";
import { z } from "zod";
import { importPeer } from "../internal/import-peer.js";
import { callPinecone } from "./call-pinecone.js";
import { createPineconeSearchPort } from "./create-pinecone-search-port.js";
import type { PineconeSearchPort, PineconeSearchPortOptions } from "./pinecone-search-port.js";

/** Where a Pinecone index is and how to reach it, for `connectPineconeSearchPort`. */
export interface PineconeConnectionOptions extends Omit<PineconeSearchPortOptions, "index" | "indexDescription"> {
  /** The API key. Read it from the environment in your code; the adapter never logs it. */
  apiKey: string;
  /** The index name: its description (metric, host, field map) is fetched with `describeIndex`. */
  indexName?: string;
  /** The index host (`https://...pinecone.io`); with `metric`, no control-plane call is made. */
  host?: string;
  /** The control-plane URL, for a Pinecone-compatible endpoint other than api.pinecone.io (a local test server). */
  controllerHostUrl?: string;
}

const url = (reason: string) => z.string({ error: reason }).regex(/^https?:\/\/\S+$/, { error: reason });

const connectionSchema = z.object({
  indexName: z
    .string({ error: "expected the name of a Pinecone index" })
    .refine((name) => name.trim() !== "", { error: "expected the name of a Pinecone index" })
    .optional(),
  host: url("expected the index host as a URL, https://<index>-<project>.svc.<region>.pinecone.io").optional(),
  controllerHostUrl: url("expected a URL").optional(),
});

/**
 * Creates the Pinecone client (`@pinecone-database/pinecone` 8, loaded only now, with its
 * own retries off: the port retries) and the port over one of its indexes, for applications that configure
 * the store rather than build the client: the CLI's `--store pinecone`. The index is found
 * by `indexName` (described with `describeIndex`, so the metric and the integrated field map
 * need not be given) or by `host` (then `metric` is needed unless `indexName` is given too).
 * A missing key, or neither name nor host, is a `ConfigurationError`; a key Pinecone refuses
 * is a `PineconePortError` that does not repeat the key.
 */
export async function connectPineconeSearchPort(options: PineconeConnectionOptions): Promise<PineconeSearchPort> {
  const { apiKey, indexName, host, controllerHostUrl, ...portOptions } = options;
  // By hand, not through parseOptions: the refused value is never shown, it may be a key.
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    throw new ConfigurationError({ key: "apiKey", value: "(hidden)", reason: "the Pinecone API key is missing: set PINECONE_API_KEY" });
  }
  parseOptions(connectionSchema, { indexName, host, controllerHostUrl }, "");
  if (indexName === undefined && host === undefined) {
    throw new ConfigurationError({ key: "indexName", value: undefined, reason: "give the index name (or its host and metric)" });
  }
  const { Pinecone } = await importPeer(() => import("@pinecone-database/pinecone"), "@pinecone-database/pinecone@^8.2.0");
  const client = new Pinecone({ apiKey, maxRetries: 0, ...(controllerHostUrl === undefined ? {} : { controllerHostUrl }) });
  const needsDescription = portOptions.metric === undefined || portOptions.integrated === true;
  let indexDescription: unknown;
  if (needsDescription) {
    if (indexName === undefined) {
      throw new ConfigurationError({
        key: "metric",
        value: undefined,
        reason: "an index given by its host needs its metric (cosine, dotproduct or euclidean), or its name",
      });
    }
    indexDescription = await callPinecone(
      "describeIndex",
      () => client.describeIndex(indexName),
      {
        maxRetries: portOptions.maxRetries ?? 3,
        timeoutMs: portOptions.timeoutMs ?? 20_000,
        retryBaseDelayMs: portOptions.retryBaseDelayMs ?? 250,
        retryMaxDelayMs: portOptions.retryMaxDelayMs ?? 8_000,
      },
      undefined,
    );
  }
  const index = host !== undefined ? client.index({ host }) : client.index({ name: indexName as string });
  return createPineconeSearchPort({ ...portOptions, index, ...(indexDescription === undefined ? {} : { indexDescription }) });
}
