import { describe, expect, it } from "vitest";
import { fileTitle } from "./file-title.js";

describe("fileTitle", () => {
  it("reads a file name: no extension, dashes and underscores as spaces, the first letter upper case", () => {
    expect(fileTitle("guides/load-balance.md")).toBe("Load balance");
    expect(fileTitle("API_gateway.mdx")).toBe("API gateway");
    expect(fileTitle("docs/v2.0--release__notes.markdown")).toBe("V2.0 release notes");
    expect(fileTitle("chinese/限流.md")).toBe("限流");
  });

  it("names an _index.md, index.md or README.md after its folder, and after itself at the root", () => {
    expect(fileTitle("en/features/db-gateway/_index.md")).toBe("Db gateway");
    expect(fileTitle("deploy/kubernetes/index.md")).toBe("Kubernetes");
    expect(fileTitle("departments/ceo-team/README.md")).toBe("Ceo team");
    expect(fileTitle("docs\\sharding\\_index.en.md")).toBe("Sharding");
    expect(fileTitle("_index.md")).toBe("Index");
    expect(fileTitle("README.md")).toBe("README");
    expect(fileTitle("./index.md")).toBe("Index");
  });

  it("keeps a name that has nothing readable as it is", () => {
    expect(fileTitle("notes/---.md")).toBe("---.md");
    expect(fileTitle("notes/.hidden")).toBe(".hidden");
  });
});
