import { createHash } from "node:crypto";
import { join } from "node:path";
import { ConfigurationError } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import type { KnowledgeSearchPort, KnowledgeWriter } from "@lookup-knowledge/search-port";
import {
  openLocalSearchPort,
  type AnswerabilityModel,
  type EmbedderIdentity,
  type LocalSearchPort,
} from "@lookup-knowledge/search-port/local";
import { localIndexDirectory } from "./local-data-folder.js";
import { describeStore, type StoreSettings } from "./store-settings.js";

/** Which store a data folder's state belongs to: what calibrations and ingest manifests are kept for. */
export interface StoreIdentity {
  kind: StoreSettings["kind"];
  /** What the store is, without secrets. */
  description: string;
  /** A hash of everything that tells this store apart (index, namespace, mode, URL, table); no secret. */
  key: string;
  /** Who embeds queries and chunks: the offline embedder, or the Pinecone index itself (`integrated`). */
  embedder: EmbedderIdentity | { id: "pinecone-integrated" };
  /**
   * Where this store's ingest manifest, L0 entries and calibration live: the data folder
   * itself for the local index, `<data>/stores/<store>` for the others, so that one data
   * folder can feed several stores and a new store is always written in full.
   */
  stateDirectory: string;
}

/** A store opened for lookups or for ingest. */
export interface OpenedStore extends StoreIdentity {
  /** The port the retriever searches and ingest writes through. */
  port: KnowledgeSearchPort & KnowledgeWriter;
  /** The local index, when the store is the embedded one (for `stats`). */
  localIndex?: LocalSearchPort;
  close(): Promise<void>;
}

/** Options of the local index only; the other stores have plain scores and ignore them. */
export interface LocalIndexOptions {
  /** The answerability model that judges the port's best hit (a calibration fitted on your questions); default the port's own. */
  answerability?: AnswerabilityModel;
  /** The port's cut on the fused ranking score; default the port's own (0: none). */
  minScore?: number;
}

/** The identity of the store the settings name, without opening it. */
export function storeIdentity(settings: StoreSettings, dataDirectory: string): StoreIdentity {
  const description = describeStore(settings);
  const offline = () => createOfflineEmbeddings().identity;
  switch (settings.kind) {
    case "local":
      return { kind: "local", description, key: hashOf("local"), embedder: offline(), stateDirectory: dataDirectory };
    case "pinecone": {
      // The mode is part of the identity: records written densely hold no sparse values.
      const identity = `pinecone|${settings.index ?? settings.host}|${settings.namespace ?? ""}|${settings.mode ?? "dense"}`;
      const readable = `pinecone-${settings.index ?? "host"}-${settings.namespace ?? "default"}-${settings.mode ?? "dense"}`;
      return {
        kind: "pinecone",
        description,
        key: hashOf(identity),
        embedder: settings.mode === "integrated" ? { id: "pinecone-integrated" } : offline(),
        stateDirectory: storeStateDirectory(dataDirectory, readable, identity),
      };
    }
    case "libsql": {
      const identity = `libsql|${settings.url}|${settings.table ?? "vectors"}`;
      return {
        kind: "libsql",
        description,
        key: hashOf(identity),
        embedder: offline(),
        stateDirectory: storeStateDirectory(dataDirectory, `libsql-${settings.table ?? "vectors"}`, identity),
      };
    }
  }
}

/**
 * Opens the store the settings name (R13), with the offline embedder unless the Pinecone
 * index embeds itself. `mode: "write"` takes the local index's writer lock. Secrets come from
 * `environment` only: `PINECONE_API_KEY` (required for Pinecone), `LIBSQL_AUTH_TOKEN` (for a
 * remote libSQL database). `localIndex` options apply to the local index only. Pass the
 * result's `port` to `createKnowledgeRetriever`.
 */
export async function openSearchStore(
  settings: StoreSettings,
  options: { dataDirectory: string; mode: "read" | "write"; environment?: NodeJS.ProcessEnv; localIndex?: LocalIndexOptions },
): Promise<OpenedStore> {
  const environment = options.environment ?? process.env;
  const identity = storeIdentity(settings, options.dataDirectory);
  switch (settings.kind) {
    case "local": {
      const port = await openLocalSearchPort({
        directory: localIndexDirectory(options.dataDirectory),
        embeddings: createOfflineEmbeddings(),
        mode: options.mode,
        ...(options.localIndex?.answerability === undefined ? {} : { answerability: options.localIndex.answerability }),
        ...(options.localIndex?.minScore === undefined ? {} : { minScore: options.localIndex.minScore }),
      });
      return { ...identity, port, localIndex: port, close: () => port.close() };
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
      return { ...identity, port, close: async () => {} };
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
      return { ...identity, port, close: () => port.close() };
    }
  }
}

function hashOf(identity: string): string {
  return createHash("sha256").update(identity).digest("hex").slice(0, 16);
}

/**
 * `<data>/stores/<label>-<hash>`: one folder per store identity. The label holds no URL, so
 * nothing of a credential reaches a folder name; the hash tells identities apart.
 */
function storeStateDirectory(dataDirectory: string, label: string, identity: string): string {
  const readable = label
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 48);
  return join(dataDirectory, "stores", `${readable}-${hashOf(identity).slice(0, 12)}`);
}
