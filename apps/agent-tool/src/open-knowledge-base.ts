import type { FlatRagConfig, RagConfigInput } from "@lookup-knowledge/core";
import { l0IndexSources, type L0Index } from "@lookup-knowledge/l0-hints";
import { hasTermShare, l0IndexOptions } from "./common-term-test.js";
import { l0IndexFromManifest, openL0Index } from "./l0-snapshot/open-l0-index.js";
import type { TraceStore } from "@lookup-knowledge/trace-store";
import { createKnowledgeRetriever, type KnowledgeRetriever } from "./create-knowledge-retriever.js";
import { storeDataSourceId } from "./telemetry/store-data-source-id.js";
import type { KnowledgeRetrieverTelemetryOptions } from "./telemetry/telemetry-options.js";
import type { Calibration } from "./evaluation/calibration-file.js";
import { resolveCalibration, type CalibrationState } from "./evaluation/resolve-calibration.js";
import { openSearchStore, storeIdentity, type OpenedStore } from "./open-search-store.js";
import type { StoreSettings } from "./store-settings.js";

export interface KnowledgeBase {
  retriever: KnowledgeRetriever;
  store: OpenedStore;
  l0Index: L0Index;
  /** How many documents the last ingest into this store recorded. */
  documents: number;
  /** The sources of those documents, as ingested (`billing/refunds.md`). */
  sources: string[];
  /** The calibration of this store (`lookup-knowledge calibrate`), when there is one, and whether it is used. */
  calibration?: CalibrationState;
  /** Flushes traces and closes the store. */
  close(): Promise<void>;
}

/**
 * Opens a knowledge base for lookups on any store (R13): the store the settings name (the
 * local index when there are none), the L0 index of the documents the last ingest into that
 * store recorded, and a retriever over both. The store's calibration (`calibration.json` in
 * its state folder, written by `lookup-knowledge calibrate`) is applied: the local index's
 * fitted answerability model, or a fitted `rag.reference-threshold` unless `config` sets
 * one. `calibration: false` ignores it; a `Calibration` object is used instead of the file.
 * A calibration fitted for another store or embedder is ignored and `onWarning` (default
 * `console.warn`) says so; a corrupt file is refused (code `invalid_calibration`).
 */
export async function openKnowledgeBase(options: {
  dataDirectory: string;
  store?: StoreSettings;
  config?: RagConfigInput | FlatRagConfig;
  traceStore?: TraceStore;
  /** OpenTelemetry spans of the retriever (README, "OpenTelemetry"). */
  telemetry?: KnowledgeRetrieverTelemetryOptions;
  environment?: NodeJS.ProcessEnv;
  calibration?: Calibration | false;
  onWarning?: (message: string) => void;
}): Promise<KnowledgeBase> {
  const settings = options.store ?? { kind: "local" };
  const applied = await resolveCalibration({
    identity: storeIdentity(settings, options.dataDirectory),
    ...(options.config ? { config: options.config } : {}),
    ...(options.calibration === undefined ? {} : { given: options.calibration }),
    onWarning: options.onWarning ?? ((message) => console.warn(message)),
  });
  const store = await openSearchStore(settings, {
    dataDirectory: options.dataDirectory,
    mode: "read",
    ...(options.environment ? { environment: options.environment } : {}),
    ...(applied.answerability ? { localIndex: { answerability: applied.answerability } } : {}),
  });
  try {
    // A store that tells how common a phrase is (the local index) lets L0 treat its everyday phrases as such.
    const indexOptions = l0IndexOptions(store.port);
    // The local index's ingest leaves an L0 snapshot: opened instead of reading the manifest (issue 36 item 5).
    const l0Index =
      settings.kind === "local" && hasTermShare(store.port)
        ? await openL0Index({
            dataDirectory: store.stateDirectory,
            records: store.port.stats().chunks,
            indexOptions,
            onWarning: options.onWarning ?? ((message) => console.warn(message)),
          })
        : await l0IndexFromManifest(store.stateDirectory, indexOptions);
    const retriever = createKnowledgeRetriever({
      searchPort: store.port,
      l0Index,
      ...(options.traceStore ? { traceStore: options.traceStore } : {}),
      // The store's name is the spans' data source unless the caller names one (issue 35).
      telemetry: { dataSourceId: storeDataSourceId(settings, options.dataDirectory), ...options.telemetry },
      ...(applied.config ? { config: applied.config } : {}),
    });
    let sources: string[] | undefined;
    return {
      retriever,
      store,
      l0Index,
      documents: l0Index.size,
      // Read when asked (the eval asks): a snapshot decodes its entries one by one (issue 36 item 5).
      get sources() {
        sources ??= l0IndexSources(l0Index) ?? [];
        return sources;
      },
      ...(applied.state ? { calibration: applied.state } : {}),
      async close() {
        try {
          await retriever.close();
        } finally {
          await store.close();
        }
      },
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
