import type { KnowledgeBase } from "@lookup-knowledge/agent-tool/stores";

type OpenedPort = KnowledgeBase["store"]["port"];

/** What the inspector may call on the store's port: searches, and reading records by id when the store can. */
export interface ReadOnlyPort extends Pick<OpenedPort, "search" | "referenceThreshold"> {
  fetchRecords?: (ids: readonly string[], options?: { signal?: AbortSignal }) => Promise<unknown>;
}

/**
 * The store's port with only its reading methods: the playground and Why-not retrievers get
 * this, never the port itself, so nothing they run can write to the index.
 */
export function readOnlyPort(port: OpenedPort): ReadOnlyPort {
  const reader = port as OpenedPort & { fetchRecords?: ReadOnlyPort["fetchRecords"] };
  const fetchRecords = reader.fetchRecords;
  return {
    search: (request) => port.search(request),
    ...(port.referenceThreshold === undefined ? {} : { referenceThreshold: port.referenceThreshold }),
    ...(typeof fetchRecords === "function" ? { fetchRecords: (ids, options) => fetchRecords.call(port, ids, options) } : {}),
  };
}
