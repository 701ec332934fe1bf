import { ConfigurationError } from "@lookup-knowledge/core";
import type { LocalPortLifecycle } from "./local-port-lifecycle.js";
import type { LocalSearchPort } from "./local-search-port.js";

/** The write side of a reader's port: what the port's close and its write calls need of it. */
export type PortWrites = Pick<LocalSearchPort, "upsert" | "deleteDocuments" | "commit" | "optimize" | "embedAhead"> & {
  /** Settles when the writes queued so far have (`close` waits for it). */
  settled(): Promise<unknown>;
  /** Lets go of the vectors asked for ahead. */
  discardAhead(): void;
};

/**
 * The write side of a port opened with mode `"read"`: every write is refused as the writer
 * refuses it (a closed port's error first, then the mode's), and nothing else happens. A
 * reader so never loads the writer's modules (issue 36 item 5: a cold query paid for them).
 */
export function readOnlyWrites(directory: string, mode: string, lifecycle: LocalPortLifecycle): PortWrites {
  const refuse = (operation: string): never => {
    lifecycle.ensureOpen();
    throw new ConfigurationError({
      key: "mode",
      value: mode,
      reason: `${operation} needs the index at ${directory} opened with mode "write"`,
    });
  };
  return {
    upsert: async () => refuse("upsert"),
    deleteDocuments: async () => refuse("deleteDocuments"),
    commit: async () => refuse("commit"),
    optimize: async () => refuse("optimize"),
    embedAhead: () => undefined,
    settled: () => Promise.resolve(),
    discardAhead: () => undefined,
  };
}
