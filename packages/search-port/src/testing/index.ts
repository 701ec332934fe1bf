export { createInMemorySearchPort } from "./create-in-memory-search-port.js";
export { createScriptedSearchPort } from "./create-scripted-search-port.js";
export { describePortConformance } from "./describe-port-conformance.js";
export type { InMemoryRecord } from "./in-memory-record.js";
export type { InMemorySearchPort } from "./in-memory-search-port.js";
export type {
  PineconeTestFault,
  PineconeTestMetric,
  PineconeTestRequest,
  PineconeTestServer,
  PineconeTestServerOptions,
} from "./pinecone-test-server.js";
export {
  portConformanceFilterCases,
  portConformanceProbe,
  portConformanceRecords,
  portConformanceUnknownFieldCases,
} from "./port-conformance-records.js";
export type { PortConformanceFilterCase } from "./port-conformance-records.js";
export type {
  ConformanceTestApi,
  PortConformanceCheck,
  PortConformanceFactory,
  PortConformanceOptions,
  PortConformanceSubject,
} from "./port-conformance-subject.js";
export { startPineconeTestServer } from "./start-pinecone-test-server.js";
export type { ScriptedAnswer } from "./scripted-answer.js";
export type { ScriptedSearchPort } from "./scripted-search-port.js";
