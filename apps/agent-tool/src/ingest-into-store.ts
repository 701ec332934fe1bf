import type { IngestOptions, IngestProgress, IngestReport } from "@lookup-knowledge/ingest";
import { ingestIntoLocalIndex } from "./ingest-into-local-index.js";
import { openSearchStore } from "./open-search-store.js";
import type { StoreSettings } from "./store-settings.js";

/**
 * Ingests a Markdown folder into any store, incrementally (R13). The local index keeps its
 * manifest in the data folder (`ingestIntoLocalIndex`); another store keeps its own in
 * `<data>/stores/<store>`, so switching stores writes every document to the new one.
 */
export async function ingestIntoStore(input: {
  root: string;
  dataDirectory: string;
  store?: StoreSettings;
  options?: IngestOptions;
  replace?: boolean;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
  environment?: NodeJS.ProcessEnv;
}): Promise<IngestReport & { store: string }> {
  const settings = input.store ?? { kind: "local" };
  const common = {
    root: input.root,
    ...(input.options ? { options: input.options } : {}),
    ...(input.onProgress ? { onProgress: input.onProgress } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.replace ? { replace: true } : {}),
  };
  if (settings.kind === "local") {
    return { ...(await ingestIntoLocalIndex({ ...common, dataDirectory: input.dataDirectory })), store: "local index" };
  }
  const store = await openSearchStore(settings, {
    dataDirectory: input.dataDirectory,
    mode: "write",
    ...(input.environment ? { environment: input.environment } : {}),
  });
  try {
    // The Markdown parser is loaded here, not with this module (`./stores` exports it to lookups too).
    const { ingestFolder } = await import("@lookup-knowledge/ingest");
    return { ...(await ingestFolder({ ...common, dataDirectory: store.stateDirectory, writer: store.port })), store: store.description };
  } finally {
    await store.close();
  }
}
