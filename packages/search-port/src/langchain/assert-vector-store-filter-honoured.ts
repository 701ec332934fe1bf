import type { MetadataFilter } from "@lookup-knowledge/core";
import { matchesFilter } from "../matches-filter.js";
import type { VectorStoreProfile } from "./vector-store-profile.js";
import { VectorStorePortError } from "./vector-store-port-error.js";

/** Throws `filter_not_honoured` when the store returned a document that `filter` excludes: it is never passed on. */
export function assertVectorStoreFilterHonoured(
  profile: VectorStoreProfile,
  metadata: Record<string, unknown>,
  id: string | undefined,
  filter: MetadataFilter | undefined,
  operation: string,
): void {
  if (filter === undefined || matchesFilter(metadata, filter)) return;
  throw new VectorStorePortError({
    code: "filter_not_honoured",
    store: profile.name,
    operation,
    message: `${profile.name} vector store returned ${JSON.stringify(id)}, which the filter ${JSON.stringify(filter)} excludes; refusing to pass it on`,
  });
}
