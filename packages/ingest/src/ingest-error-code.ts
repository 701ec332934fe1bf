/** The codes of the errors `@lookup-knowledge/ingest` throws (`error.code`); stable, meant for programs. */
export type IngestErrorCode = "invalid_ingest_root" | "invalid_ingest_manifest" | "different_ingest_root" | "invalid_document";
