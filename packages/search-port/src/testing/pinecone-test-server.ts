/** The similarity metric of the emulated index. */
export type PineconeTestMetric = "cosine" | "dotproduct" | "euclidean";

export interface PineconeTestServerOptions {
  /** The index's metric (default `"cosine"`); `"dotproduct"` also accepts sparse values. */
  metric?: PineconeTestMetric;
  /** The index's dimension; default: the length of the first vector written. */
  dimension?: number;
  /** The name `GET /indexes/{name}` answers to (default `"test-index"`). */
  indexName?: string;
  /**
   * Answers queries as if the filter were not there: for tests that a port does not pass on
   * records its filter excludes.
   */
  ignoreFilters?: boolean;
  /** When set, every request must carry this `Api-Key` (401 otherwise); by default any non-empty key passes. */
  apiKey?: string;
  /**
   * Makes the index one with integrated inference: `upsertRecords` and `searchRecords` embed
   * the text in `textField` with `embed` (for example the offline embedder).
   */
  integrated?: {
    textField: string;
    embed(texts: string[], kind: "passage" | "query"): Promise<number[][]>;
    model?: string;
  };
}

/**
 * A fault the server injects into the next matching requests, before anything else
 * happens: it waits `delayMs`, then answers `status` (with a Pinecone-style JSON error),
 * or a malformed body, or, with neither, the normal answer.
 */
export interface PineconeTestFault {
  /** The request path it applies to (`"/query"`, `"/vectors/upsert"`, a RegExp); default: every path. */
  path?: string | RegExp;
  /** How many matching requests it applies to (default 1). */
  times?: number;
  /** Answer with this HTTP status. */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer 200 with a body that is not JSON, or JSON of the wrong shape. */
  malformed?: "not-json" | "wrong-shape";
  /** The error message of a `status` answer. */
  message?: string;
}

/** One request the server received. */
export interface PineconeTestRequest {
  method: string;
  path: string;
  /** The namespace it addressed, when it named one. */
  namespace?: string;
}

/** A running local emulation of the part of Pinecone's API the adapter uses. */
export interface PineconeTestServer {
  /** `http://127.0.0.1:PORT`: the index host (`pc.index({ host: url })`) and the control-plane URL (`controllerHostUrl`). */
  readonly url: string;
  /** Every request received, in order (faulted ones included). */
  readonly requests: readonly PineconeTestRequest[];
  /** Queues a fault; faults apply in the order they were queued. */
  inject(fault: PineconeTestFault): void;
  /** Drops the faults not yet used up. */
  clearFaults(): void;
  /** How many records a namespace holds (default: the default namespace `""`). */
  recordCount(namespace?: string): number;
  /** Stops the server and cuts open connections. */
  close(): Promise<void>;
}
