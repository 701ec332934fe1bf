import type { TraceReader } from "./traces-api.js";

/** A trace reader the inspector opened itself, and so closes with the server. */
export interface OwnedTraceReader extends TraceReader {
  close(): Promise<void>;
}

/**
 * Opens the trace store on demand: resolves to `undefined` while none exists yet (no lookup
 * was recorded), and to the opened store once one does. It may throw: the request that
 * asked answers with the error, and the next one tries again.
 */
export type OpenTraceReader = () => Promise<OwnedTraceReader | undefined>;

/** Where the inspector's endpoints find recorded lookups. */
export interface LazyTraceReader {
  /** The store, opened on the first call that finds one; `undefined` while there is none yet. */
  current(): Promise<TraceReader | undefined>;
  /** Closes the store if this reader opened it (a store given as is stays open). Never rejects. */
  close(): Promise<void>;
}

/**
 * `source` as a `LazyTraceReader`: a store given as is is used as is; an opener is called
 * again on every request until it yields a store, which is then kept, so
 * `lookup-knowledge inspect` started before the first lookup still shows the later ones.
 * Calls that overlap share one opening.
 */
export function lazyTraceReader(source: TraceReader | OpenTraceReader | undefined): LazyTraceReader {
  if (typeof source !== "function") {
    return { current: async () => source, close: async () => {} };
  }
  const open = source;
  let opened: OwnedTraceReader | undefined;
  let opening: Promise<OwnedTraceReader | undefined> | undefined;
  let closed = false;
  function current(): Promise<TraceReader | undefined> {
    if (opened || closed) return Promise.resolve(opened);
    const pending =
      opening ??
      open()
        .then((reader) => {
          opened = reader;
          return reader;
        })
        .finally(() => {
          opening = undefined;
        });
    opening = pending;
    return pending;
  }
  return {
    current,
    async close() {
      closed = true;
      // A store still being opened is closed once it is open.
      if (opening) await opening.catch(() => undefined);
      const reader = opened;
      opened = undefined;
      await reader?.close().catch(() => undefined);
    },
  };
}
