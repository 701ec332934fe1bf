import { errorMessage } from "@lookup-knowledge/core";
import type { VectorStoreProfile } from "./vector-store-profile.js";
import { VectorStorePortError } from "./vector-store-port-error.js";

/** Rethrows a `VectorStorePortError` as it is; wraps anything else the store threw in one (`vector_store_failed`) naming the operation. */
export function vectorStoreCallFailed(profile: VectorStoreProfile, operation: string, error: unknown): never {
  if (VectorStorePortError.isInstance(error)) throw error;
  throw new VectorStorePortError({
    code: "vector_store_failed",
    store: profile.name,
    operation,
    message: `${profile.name} vector store failed in ${operation}: ${errorMessage(error)}`,
    cause: error,
  });
}
