// `@lookup-knowledge/ingest/manifest`: the ingest manifest alone (what a data folder holds,
// read and written), without the Markdown parser, so that a program that only reads what was
// ingested (a lookup, the inspector, the MCP server) does not load it.
export { IngestError } from "./ingest-error.js";
export type { IngestErrorCode } from "./ingest-error-code.js";
export type { IngestManifest, IngestManifestDocument } from "./manifest/ingest-manifest.js";
export { ingestManifestFileName } from "./manifest/ingest-manifest-file.js";
export { readIngestManifest } from "./manifest/read-ingest-manifest.js";
export { writeIngestManifest } from "./manifest/write-ingest-manifest.js";
export { writeFileAtomically } from "./manifest/write-file-atomically.js";
