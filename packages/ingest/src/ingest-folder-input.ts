import type { KnowledgeWriter } from "@lookup-knowledge/search-port";
import type { IngestOptions } from "./options/ingest-options.js";
import type { IngestProgress } from "./report/ingest-progress.js";

/** What `ingestFolder` is given. */
export interface IngestFolderInput {
  root: string;
  dataDirectory: string;
  writer: KnowledgeWriter;
  options?: IngestOptions;
  batchSize?: number;
  onProgress?: (progress: IngestProgress) => void;
  signal?: AbortSignal;
  /** Parse threads: 1 is the calling thread, more are worker threads. Default `defaultParseWorkers()`. */
  parseWorkers?: number;
  /** Ingest a different root into a data directory that holds another folder's documents, removing those. */
  replace?: boolean;
  /** Write every document again, whatever the manifest says (the store was emptied or rebuilt). */
  rebuild?: boolean;
}
