import { ConfigurationError, parseOptions } from "@lookup-knowledge/core";
import { importPeer } from "../internal/import-peer.js";
import { callPinecone } from "./call-pinecone.js";
import { createPineconeSearchPort } from "./create-pinecone-search-port.js";
import { pineconeConnectionOptionsSchema } from "./pinecone-connection-options.js";
import type { PineconeConnectionOptions } from "./pinecone-connection-options.js";
import type { PineconeSearchPort } from "./pinecone-search-port.js";
import { callPolicyOf } from "./read-pinecone-settings.js";

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
  // By hand, before parseOptions: the refused value is never shown, it may be a key.
  if (typeof apiKey !== "string" || apiKey.trim() === "") {
    throw new ConfigurationError({ key: "apiKey", value: "(hidden)", reason: "the Pinecone API key is missing: set PINECONE_API_KEY" });
  }
  const connection = parseOptions(pineconeConnectionOptionsSchema, options, "");
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
    indexDescription = await callPinecone("describeIndex", () => client.describeIndex(indexName), callPolicyOf(connection), undefined);
  }
  const index = host !== undefined ? client.index({ host }) : client.index({ name: indexName as string });
  return createPineconeSearchPort({ ...portOptions, index, ...(indexDescription === undefined ? {} : { indexDescription }) });
}
