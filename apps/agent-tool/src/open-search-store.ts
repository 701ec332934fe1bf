import { createHash } from "node:crypto";
import { join } from "node:path";
import { ConfigurationError } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import type { KnowledgeSearchPort, KnowledgeWriter } from "@lookup-knowledge/search-port";
import { openLocalSearchPort, type LocalSearchPort } from "@lookup-knowledge/search-port/local";
import { localIndexDirectory } from "./open-local-knowledge-base.js";
import { describeStore, type StoreSettings } from "./store-settings.js";

/** A store opened for lookups or for ingest. */
export interface OpenedStore {
  /** The port the retriever searches and ingest writes through. */
  port: KnowledgeSearchPort & KnowledgeWriter;
  /** The local index, when the store is the embedded one (for `stats`). */
  localIndex?: LocalSearchPort;
  /** What the store is, without secrets. */
  description: string;
  /**
   * Where this store's ingest manifest and L0 entries live: the data folder itself for the
   * local index, `<data>/stores/<store>` for the others, so that one data folder can feed
   * several stores and a new store is always written in full.
   */
  stateDirectory: string;
  close(): Promise<void>;
}

/**
 * Opens the store the settings name (R13), with the offline embedder unless the Pinecone
 * index embeds itself. `mode: "write"` takes the local index's writer lock. Secrets come from
 * `environment` only: `PINECONE_API_KEY` (required for Pinecone), `LIBSQL_AUTH_TOKEN` (for a
 * remote libSQL database). Pass the result's `port` to `createKnowledgeRetriever`.
 */
export async function openSearchStore(
  settings: StoreSettings,
  options: { dataDirectory: string; mode: "read" | "write"; environment?: NodeJS.ProcessEnv },
): Promise<OpenedStore> {
  const environment = options.environment ?? process.env;
  const description = describeStore(settings);
  switch (settings.kind) {
    case "local": {
      const port = await openLocalSearchPort({
        directory: localIndexDirectory(options.dataDirectory),
        embeddings: createOfflineEmbeddings(),
        mode: options.mode,
      });
      return { port, localIndex: port, description, stateDirectory: options.dataDirectory, close: () => port.close() };
    }
    case "pinecone": {
      const apiKey = environment["PINECONE_API_KEY"]?.trim();
      if (!apiKey) {
        throw new ConfigurationError({
          key: "PINECONE_API_KEY",
          value: "(unset)",
          reason: "a Pinecone store reads its API key from the environment variable PINECONE_API_KEY; set it",
        });
      }
      const { connectPineconeSearchPort } = await import("@lookup-knowledge/search-port/pinecone");
      const port = await connectPineconeSearchPort({
        apiKey,
        ...(settings.index === undefined ? {} : { indexName: settings.index }),
        ...(settings.host === undefined ? {} : { host: settings.host }),
        ...(settings.namespace === undefined ? {} : { namespace: settings.namespace }),
        ...(settings.metric === undefined ? {} : { metric: settings.metric }),
        ...(settings.controllerHostUrl === undefined ? {} : { controllerHostUrl: settings.controllerHostUrl }),
        ...(settings.mode === "integrated" ? { integrated: true as const } : { embeddings: createOfflineEmbeddings() }),
        ...(settings.mode === "hybrid" ? { hybrid: true } : {}),
      });
      // The mode is part of the identity: records written densely hold no sparse values.
      const identity = `pinecone|${settings.index ?? settings.host}|${settings.namespace ?? ""}|${settings.mode ?? "dense"}`;
      const readable = `pinecone-${settings.index ?? "host"}-${settings.namespace ?? "default"}-${settings.mode ?? "dense"}`;
      return { port, description, stateDirectory: storeStateDirectory(options.dataDirectory, readable, identity), close: async () => {} };
    }
    case "libsql": {
      const authToken = environment["LIBSQL_AUTH_TOKEN"]?.trim();
      const { openLibsqlSearchPort } = await import("@lookup-knowledge/search-port/libsql");
      const port = await openLibsqlSearchPort({
        url: settings.url,
        embeddings: createOfflineEmbeddings(),
        ...(settings.table === undefined ? {} : { table: settings.table }),
        ...(authToken ? { authToken } : {}),
      });
      const identity = `libsql|${settings.url}|${settings.table ?? "vectors"}`;
      return { port, description, stateDirectory: storeStateDirectory(options.dataDirectory, `libsql-${settings.table ?? "vectors"}`, identity), close: () => port.close() };
    }
  }
}

/**
 * `<data>/stores/<label>-<hash>`: one folder per store identity. The label holds no URL, so
 * nothing of a credential reaches a folder name; the hash tells identities apart.
 */
function storeStateDirectory(dataDirectory: string, label: string, identity: string): string {
  const readable = label.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 48);
  const hash = createHash("sha256").update(identity).digest("hex").slice(0, 12);
  return join(dataDirectory, "stores", `${readable}-${hash}`);
}
