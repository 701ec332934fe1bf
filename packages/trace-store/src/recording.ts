// `@lookup-knowledge/trace-store/recording`: what a lookup needs to record its trace (the
// recorder, the record it builds, how queries are stored, the spool it appends to) and nothing
// that reads traces back or holds a database, so a lookup loads only this (issue 36 item 5:
// the package's root entry brought ~50 modules into a CLI query).
export { buildToolInvocationRecord } from "./record/build-tool-invocation-record.js";
export { createTraceRecorder } from "./recorder/create-trace-recorder.js";
export { hashQuery, hashQueryTerm, queryHashPrefix } from "./record/hash-query.js";
export { resolveQueryStorage } from "./record/query-storage.js";
export type { QueryStorage } from "./record/query-storage.js";
export type { RetrievalDetails } from "./record/retrieval-details.js";
export { createTraceSpool } from "./spool/create-trace-spool.js";
export type { TraceSpool } from "./spool/trace-spool.js";
export type { SpoolFsync, TraceSpoolOptions } from "./spool/trace-spool-options.js";
export type { ToolInvocationRecord } from "./record/tool-invocation-record.js";
export { TraceRecordError } from "./record/trace-record-error.js";
export type { TraceRecorder } from "./recorder/trace-recorder.js";
export { TraceStoreError } from "./errors/trace-store-error.js";
export type { TraceRecordErrorCode, TraceStoreErrorCode, TraceStoreFailureCode } from "./errors/trace-store-error-code.js";
export type { TraceStore } from "./trace-store.js";
