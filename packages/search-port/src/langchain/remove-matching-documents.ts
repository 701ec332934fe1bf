import type { MetadataFilter } from "@lookup-knowledge/core";
import { assertVectorStoreFilterHonoured } from "./assert-vector-store-filter-honoured.js";
import { queryVectorStore } from "./query-vector-store.js";
import type { VectorStoreSettings } from "./read-vector-store-settings.js";
import { vectorStoreCallFailed } from "./vector-store-call-failed.js";
import { VectorStorePortError } from "./vector-store-port-error.js";

/** Records found and removed per round of a filtered removal. */
export const removalPage = 500;
const maxRemovalRounds = 1000;
/** The text of the searches that find records to remove; only the filter matters. */
const removalProbe = "lookup-knowledge record";

/**
 * Finds the stored documents `filter` selects (a filtered search) and deletes them by the
 * store's ids, until none is left; says how many went. For stores whose profile has no
 * `removeRecords` / `removeDocuments` of its own.
 */
export async function removeMatchingDocuments(settings: VectorStoreSettings, filter: MetadataFilter, operation: string): Promise<number> {
  const { profile, vectorStore } = settings;
  const failed = (message: string) => new VectorStorePortError({ code: "vector_store_failed", store: profile.name, operation, message });
  if (typeof vectorStore.delete !== "function") {
    throw failed(`${profile.name} vector store has no delete; give the profile removeRecords and removeDocuments`);
  }
  const translated = profile.translateFilter(filter, vectorStore);
  if (translated === false) return 0;
  let removed = 0;
  for (let round = 0; round < maxRemovalRounds; round += 1) {
    const k = profile.candidates === undefined ? removalPage : await profile.candidates(vectorStore, removalPage, true);
    const found = (
      await queryVectorStore(settings, removalProbe, k, translated).catch((error: unknown) =>
        vectorStoreCallFailed(profile, "similaritySearch", error),
      )
    ).map(([document]) => document);
    if (found.length === 0) return removed;
    const ids: string[] = [];
    for (const document of found) {
      assertVectorStoreFilterHonoured(profile, document.metadata ?? {}, document.id, filter, operation);
      if (typeof document.id !== "string") {
        throw failed(
          `${profile.name} vector store returns documents without ids, so they cannot be deleted; give the profile removeRecords and removeDocuments`,
        );
      }
      ids.push(document.id);
    }
    await vectorStore.delete({ ids }).catch((error: unknown) => vectorStoreCallFailed(profile, "delete", error));
    removed += ids.length;
  }
  throw failed(`${profile.name} vector store still returns deleted documents after ${maxRemovalRounds} rounds`);
}
