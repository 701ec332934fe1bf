// Issue 36 item 5: what a `query` runs past the command line, as one entry. In the bin, the bundle
// step compiles it into one CommonJS file, `dist/bundle/query-path.cjs`, which the command loads
// under a V8 code cache (`load-query-path-bundled.ts`); unbundled, it is imported as it is.
export { loadCliConfig } from "./cli-config.js";
export { withLookupKnowledgeBase } from "./with-lookup-knowledge-base.js";
