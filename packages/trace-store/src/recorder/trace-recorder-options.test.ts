import { ConfigurationError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { readTraceRecorderOptions, type TraceRecorderOptions } from "./trace-recorder-options.js";

describe("readTraceRecorderOptions", () => {
  it("issue 36 item 5 (review): options given as an array are refused as the schema refused them, not read as defaults", () => {
    const array = [] as unknown as TraceRecorderOptions;
    expect(() => readTraceRecorderOptions(array)).toThrow(ConfigurationError);
    expect(() => readTraceRecorderOptions(array)).toThrow(/createTraceRecorder.*array/);
  });
});
