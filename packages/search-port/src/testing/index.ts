export { createInMemorySearchPort } from "./create-in-memory-search-port.js";
export { createScriptedSearchPort } from "./create-scripted-search-port.js";
export type { InMemoryRecord } from "./in-memory-record.js";
export type { InMemorySearchPort } from "./in-memory-search-port.js";
export type { ScriptedAnswer } from "./scripted-answer.js";
export type { ScriptedSearchPort } from "./scripted-search-port.js";
