import { defaultGapsSince as traceStoreDefault } from "@lookup-knowledge/trace-store";
import { describe, expect, it } from "vitest";
import { defaultGapsSince } from "./trace-commands.js";

describe("trace commands", () => {
  it("issue 37: gaps --since defaults to the period the trace store takes when none is given", () => {
    expect(defaultGapsSince).toBe(traceStoreDefault);
  });
});
