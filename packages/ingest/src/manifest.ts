// `@lookup-knowledge/ingest/manifest`: the ingest manifest alone (what a data folder holds,
// read and written), without the Markdown parser, so that a program that only reads what was
// ingested (a lookup, the inspector, the MCP server) does not load it.
export { IngestError } from "./ingest-error.js";
export type { IngestErrorCode } from "./ingest-error-code.js";
export type { IngestManifest, IngestManifestDocument } from "./ingest-manifest.js";
export { ingestManifestFileName } from "./ingest-manifest-file.js";
export { readIngestManifest } from "./read-ingest-manifest.js";
export { writeIngestManifest } from "./write-ingest-manifest.js";
export { writeFileAtomically } from "./write-file-atomically.js";
