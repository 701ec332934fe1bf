import { ConfigurationError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { readDurableTraceStoreOptions, type DurableTraceStoreOptions } from "./durable-trace-store-options.js";

/** The `ConfigurationError` that reading `options` throws. */
function refusal(options: unknown): ConfigurationError {
  let caught: unknown;
  try {
    readDurableTraceStoreOptions(options as DurableTraceStoreOptions);
  } catch (error) {
    caught = error;
  }
  expect(ConfigurationError.isInstance(caught)).toBe(true);
  return caught as ConfigurationError;
}

describe("readDurableTraceStoreOptions", () => {
  it("fills in the defaults; the flush bounds are off without a background flusher", () => {
    const settings = readDurableTraceStoreOptions({ directory: "traces" });
    expect(settings).toMatchObject({
      flushIntervalMs: 2000,
      flushAfterRecords: 1000,
      flushAfterBytes: 4 * 1024 * 1024,
      batchSize: 500,
      idleCloseMs: 1000,
      lockWaitMs: 15_000,
      foreignWriterIdleMs: 600_000,
      queryStorage: "text",
      database: undefined,
    });
    expect(settings.pgliteDirectory.replaceAll("\\", "/")).toBe("traces/database");
    expect(readDurableTraceStoreOptions({ directory: "traces", flushIntervalMs: 0 })).toMatchObject({
      flushAfterRecords: 0,
      flushAfterBytes: 0,
    });
  });

  it("names the refused option after the function, with the reason it always gave", () => {
    const error = refusal({ directory: "traces", batchSize: 0 });
    expect(error.key).toBe("createDurableTraceStore.batchSize");
    expect(error.value).toBe(0);
    expect(error.message).toMatch(/must be a whole number, 1 or more/);
    expect(refusal({ directory: "traces", fsync: "sometimes" }).message).toMatch(
      /createDurableTraceStore\.fsync="sometimes": must be "always" or "on-flush"/,
    );
  });

  it("refuses a directory that is not a string with ConfigurationError, not a TypeError", () => {
    expect(refusal({ directory: 42 }).key).toBe("createDurableTraceStore.directory");
    expect(refusal(undefined).key).toBe("createDurableTraceStore");
  });

  it("never shows the password of a refused databaseUrl", () => {
    const error = refusal({ directory: "traces", databaseUrl: "mysql://user:s3cret@host/db" });
    expect(error.message).not.toContain("s3cret");
    expect(error.key).toBe("DATABASE_URL");
    const notString = refusal({ directory: "traces", databaseUrl: new URL("postgres://user:s3cret@host/db") });
    expect(notString.message).not.toContain("s3cret");
  });
});
