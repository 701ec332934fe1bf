import type { EmbedderIdentity } from "../port/local-search-port.js";

/**
 * Whether the last commit recorded the writer's own embedder (an index keeps it once it held
 * its vectors, also one of an older format upgraded with every record deleted); not one of
 * another embedder a writer started empty over.
 */
export function keepsEmbedder(recorded: EmbedderIdentity | null, writer: EmbedderIdentity | null): boolean {
  return (
    recorded !== null &&
    writer !== null &&
    recorded.id === writer.id &&
    recorded.version === writer.version &&
    recorded.dimension === writer.dimension
  );
}
