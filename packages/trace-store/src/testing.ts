// Test doubles for code that records tool invocations: `@lookup-knowledge/trace-store/testing`.
export { createInMemoryTraceStore } from "./in-memory/create-in-memory-trace-store.js";
export type { InMemoryTraceStore } from "./in-memory/in-memory-trace-store.js";
