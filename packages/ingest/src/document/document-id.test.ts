import { describe, expect, it } from "vitest";
import { DocumentError } from "./document-error.js";
import { documentId } from "./document-id.js";

describe("documentId", () => {
  it("drops the extension and keeps the posix path", () => {
    expect(documentId("plugins/limit-req.md")).toBe("plugins/limit-req");
    expect(documentId("guide.mdx")).toBe("guide");
    expect(documentId("en/latest/FAQ.md")).toBe("en/latest/FAQ");
  });

  it("normalises separators, leading ./ and Unicode so the id is stable", () => {
    expect(documentId("./plugins\\limit-req.md")).toBe("plugins/limit-req");
    expect(documentId("/a/b.md")).toBe("a/b");
    expect(documentId("cafe\u0301.md")).toBe("caf\u00e9");
    expect(documentId("插件/限流.md")).toBe("插件/限流");
  });

  it("keeps dots that are not an extension", () => {
    expect(documentId("releases/release-7.1.6.md")).toBe("releases/release-7.1.6");
    expect(documentId("docs/.hidden")).toBe("docs/.hidden");
    expect(documentId("v1.2/readme")).toBe("v1.2/readme");
  });

  it("refuses a path that names no file", () => {
    expect(() => documentId("")).toThrow(DocumentError);
    expect(() => documentId("docs/")).toThrow(/names no file/);
  });
});
