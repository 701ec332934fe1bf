import type { FlatRagConfig, RagConfigInput } from "@lookup-knowledge/core";
import { createOfflineEmbeddings } from "@lookup-knowledge/embeddings";
import type { L0Index } from "@lookup-knowledge/l0-hints";
import { l0IndexOptions } from "./common-term-test.js";
import { openLocalSearchPort, type LocalSearchPort } from "@lookup-knowledge/search-port/local";
import type { TraceStore } from "@lookup-knowledge/trace-store";
import { createKnowledgeRetriever, type KnowledgeRetriever } from "./create-knowledge-retriever.js";
import { storeDataSourceId } from "./telemetry/store-data-source-id.js";
import type { KnowledgeRetrieverTelemetryOptions } from "./telemetry/telemetry-options.js";
import type { Calibration } from "./evaluation/calibration-file.js";
import { resolveCalibration, type CalibrationState } from "./evaluation/resolve-calibration.js";
import { openL0Index } from "./l0-snapshot/open-l0-index.js";
import { localIndexDirectory } from "./local-data-folder.js";
import { storeIdentity } from "./open-search-store.js";

export interface LocalKnowledgeBase {
  retriever: KnowledgeRetriever;
  searchPort: LocalSearchPort;
  l0Index: L0Index;
  /** The folder's calibration (`lookup-knowledge calibrate`), when there is one, and whether it is used. */
  calibration?: CalibrationState;
  /** Flushes traces and closes the index. */
  close(): Promise<void>;
}

/**
 * Opens the embedded default for lookups: the local hybrid index of `dataDirectory` with
 * the offline embedder, and the L0 index of the documents the last ingest recorded (opened from
 * the snapshot the ingest wrote, `l0-index.bin`, when it is current; else built). No
 * server, no keys, nothing downloaded. The folder's calibration (`calibration.json`, written by
 * `lookup-knowledge calibrate`) is applied as `openKnowledgeBase` applies it: the fitted
 * answerability model of the index. `calibration: false` ignores it; a `Calibration` object
 * is used instead of the file; one fitted for another store or embedder is ignored and
 * `onWarning` (default `console.warn`) says so.
 */
export async function openLocalKnowledgeBase(options: {
  dataDirectory: string;
  config?: RagConfigInput | FlatRagConfig;
  traceStore?: TraceStore;
  /** OpenTelemetry spans of the retriever (README, "OpenTelemetry"). */
  telemetry?: KnowledgeRetrieverTelemetryOptions;
  calibration?: Calibration | false;
  onWarning?: (message: string) => void;
}): Promise<LocalKnowledgeBase> {
  const applied = await resolveCalibration({
    identity: storeIdentity({ kind: "local" }, options.dataDirectory),
    ...(options.config ? { config: options.config } : {}),
    ...(options.calibration === undefined ? {} : { given: options.calibration }),
    onWarning: options.onWarning ?? ((message) => console.warn(message)),
  });
  const searchPort = await openLocalSearchPort({
    directory: localIndexDirectory(options.dataDirectory),
    embeddings: createOfflineEmbeddings(),
    mode: "read",
    ...(applied.answerability ? { answerability: applied.answerability } : {}),
  });
  let l0Index: L0Index;
  let retriever: KnowledgeRetriever;
  try {
    l0Index = await openL0Index({
      dataDirectory: options.dataDirectory,
      records: searchPort.stats().chunks,
      indexOptions: l0IndexOptions(searchPort),
      onWarning: options.onWarning ?? ((message) => console.warn(message)),
    });
    retriever = createKnowledgeRetriever({
      searchPort,
      l0Index,
      ...(options.traceStore ? { traceStore: options.traceStore } : {}),
      // The store's name is the spans' data source unless the caller names one (issue 35).
      telemetry: { dataSourceId: storeDataSourceId({ kind: "local" }, options.dataDirectory), ...options.telemetry },
      ...(applied.config ? { config: applied.config } : {}),
    });
  } catch (error) {
    await searchPort.close();
    throw error;
  }
  return {
    retriever,
    searchPort,
    l0Index,
    ...(applied.state ? { calibration: applied.state } : {}),
    async close() {
      try {
        await retriever.close();
      } finally {
        await searchPort.close();
      }
    },
  };
}
