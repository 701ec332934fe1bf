// What only a port opened with mode "write" uses, in one module that open-local-search-port.ts
// imports when the mode is "write": a reader loads none of the writer's modules (issue 36 item 5).
export { LocalIndexWriter } from "../writer/local-index-writer.js";
export { removeUnreferencedFiles } from "../writer/remove-unreferenced-files.js";
export { acquireWriteLock, staleMs } from "../writer/write-lock.js";
export { syncMadeFolders } from "../format/sync-made-folders.js";
