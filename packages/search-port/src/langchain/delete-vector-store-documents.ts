import { raceWithAbort, throwIfAborted } from "../internal/abort.js";
import { requireArray } from "../internal/require-array.js";
import type { VectorStoreSettings } from "./read-vector-store-settings.js";
import { removalPage, removeMatchingDocuments } from "./remove-matching-documents.js";

/**
 * The `deleteDocuments` of the VectorStore port: every chunk of the documents removed (the
 * profile's way, or found by a filtered search on `docId` / `doc_id` and deleted), and how
 * many records went.
 */
export async function deleteVectorStoreDocuments(
  settings: VectorStoreSettings,
  docIds: string[],
  options?: { signal?: AbortSignal },
): Promise<number> {
  const { profile, vectorStore } = settings;
  const signal = options?.signal;
  throwIfAborted(signal);
  requireArray(docIds, "deleteDocuments");
  const wanted = [...new Set(docIds.filter((docId): docId is string => typeof docId === "string" && docId !== ""))];
  if (wanted.length === 0) return 0;
  if (profile.removeDocuments !== undefined) {
    return raceWithAbort(profile.removeDocuments(vectorStore, wanted), signal);
  }
  let removed = 0;
  for (let start = 0; start < wanted.length; start += removalPage) {
    const part = wanted.slice(start, start + removalPage);
    removed += await raceWithAbort(
      removeMatchingDocuments(settings, { $or: [{ docId: { $in: part } }, { doc_id: { $in: part } }] }, "deleteDocuments"),
      signal,
    );
  }
  return removed;
}
