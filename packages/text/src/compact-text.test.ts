import { describe, expect, it } from "vitest";
import { compactText } from "./compact-text.js";

describe("compactText", () => {
  it("lays CJK text out without spaces next to CJK characters, keeping them between other words", () => {
    expect(compactText("tidb 集群")).toBe("tidb集群");
    expect(compactText("  tidb   cloud  集群，怎么 扩容？ ")).toBe("tidb cloud集群怎么扩容");
    expect(compactText("mysql：慢查询日志")).toBe("mysql慢查询日志");
    expect(compactText("c++ 编译")).toBe("c++编译");
  });
});
