import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../../search-port-error-code.js";

const marker = "lookup-knowledge.error.analyzer-mismatch";
const symbol = Symbol.for(marker);

/**
 * The index folder was built with another version of the text analyser
 * (`analyzerVersion` of `@lookup-knowledge/text`) than this library's, or before versions
 * were recorded. Its terms cannot be compared with a query's, so a reader refuses it; the
 * next writer open (an ingest) re-indexes every record with this analyser.
 */
export class AnalyzerMismatchError extends LookupKnowledgeError<Extract<SearchPortErrorCode, "analyzer_mismatch">> {
  private readonly [symbol] = true;
  readonly directory: string;
  /** The version the index records (a description when it records none). */
  readonly indexAnalyzer: string;
  /** This library's `analyzerVersion`. */
  readonly libraryAnalyzer: string;

  constructor(options: { directory: string; indexAnalyzer: string; libraryAnalyzer: string }) {
    super({
      code: "analyzer_mismatch",
      message:
        `The index at ${options.directory} was built with text analyser ${JSON.stringify(options.indexAnalyzer)}, ` +
        `but this library analyses text with ${JSON.stringify(options.libraryAnalyzer)}. ` +
        "Run the ingest again: opening the index for writing rebuilds it with this analyser.",
    });
    this.name = "AnalyzerMismatchError";
    this.directory = options.directory;
    this.indexAnalyzer = options.indexAnalyzer;
    this.libraryAnalyzer = options.libraryAnalyzer;
  }

  static override isInstance(error: unknown): error is AnalyzerMismatchError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}
