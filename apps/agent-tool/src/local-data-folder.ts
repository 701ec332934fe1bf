import { join } from "node:path";

/** Where the embedded index lives inside a data folder. */
export function localIndexDirectory(dataDirectory: string): string {
  return join(dataDirectory, "index");
}

/** Where the tool invocation records of a data folder live: the spool, and the embedded database. */
export function tracesDirectory(dataDirectory: string): string {
  return join(dataDirectory, "traces");
}
