import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../../search-port-error-code.js";
import type { EmbedderIdentity } from "../port/local-search-port.js";

const marker = "lookup-knowledge.error.embedder-mismatch";
const symbol = Symbol.for(marker);

/**
 * The index folder holds vectors of another embedder than the one given (or of none), or
 * the embedder returned vectors of the wrong size. Vectors of two embedders are never mixed
 * in one index: rebuild the index into a new folder, or open it with the embedder it names.
 */
export class EmbedderMismatchError extends LookupKnowledgeError<Extract<SearchPortErrorCode, "embedder_mismatch">> {
  private readonly [symbol] = true;
  readonly directory: string;
  /** The embedder the index was built with; `null` for a lexical-only index. */
  readonly indexEmbedder: EmbedderIdentity | null;
  /** The embedder given to `openLocalSearchPort`; `null` when none was given. */
  readonly givenEmbedder: EmbedderIdentity | null;

  constructor(options: {
    directory: string;
    indexEmbedder: EmbedderIdentity | null;
    givenEmbedder: EmbedderIdentity | null;
    reason?: string;
  }) {
    super({
      code: "embedder_mismatch",
      message:
        `The index at ${options.directory} was built with ${describeEmbedder(options.indexEmbedder)}, ` +
        `but it was opened with ${describeEmbedder(options.givenEmbedder)}` +
        (options.reason === undefined ? "" : `: ${options.reason}`) +
        ". Open it with the embedder it was built with, or rebuild it into a new folder.",
    });
    this.name = "EmbedderMismatchError";
    this.directory = options.directory;
    this.indexEmbedder = options.indexEmbedder;
    this.givenEmbedder = options.givenEmbedder;
  }

  static override isInstance(error: unknown): error is EmbedderMismatchError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}

/** `embedder "offline-glove" version 1 (356 dimensions)`, or `no embedder`. */
export function describeEmbedder(embedder: EmbedderIdentity | null): string {
  if (embedder === null) return "no embedder (lexical only)";
  return `embedder ${JSON.stringify(embedder.id)} version ${JSON.stringify(embedder.version)} (${embedder.dimension} dimensions)`;
}
