import { describe, expect, it } from "vitest";
import { splitOf } from "./split.js";

describe("splitOf", () => {
  it("puts odd-numbered questions in the development half and even ones in the test half", () => {
    expect(splitOf({ id: "en-001" })).toBe("dev");
    expect(splitOf({ id: "oos-zh-12" })).toBe("test");
    expect(splitOf({ id: "example-7" })).toBe("dev");
  });

  it("refuses an id without a trailing number, naming it", () => {
    expect(() => splitOf({ id: "en-a" })).toThrow(/"en-a"/);
  });
});
