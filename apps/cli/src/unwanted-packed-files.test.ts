import { describe, expect, it } from "vitest";
import { unwantedPackedFiles } from "../../../tooling/scripts/unwanted-packed-files.mjs";

// `pnpm check:packages` packs each published package and refuses a tarball holding any of
// these files; the real run passes on every package (issue 34, item 5).

describe("unwantedPackedFiles", () => {
  it("finds tsc's build info wherever it is, as tar lists it", () => {
    expect(unwantedPackedFiles(["package/dist/.tsbuildinfo", "package/tsconfig.tsbuildinfo", "package/dist/index.js"])).toEqual([
      { path: "dist/.tsbuildinfo", reason: "incremental build state" },
      { path: "tsconfig.tsbuildinfo", reason: "incremental build state" },
    ]);
  });

  it("finds test files, test fixtures and anything under a test folder, in src and dist", () => {
    const listed = [
      "dist/local/open-local-search-port.test.js",
      "src/retriever/classify-attempt.test.ts",
      "dist/pinecone/pinecone-port-test-fixtures.d.ts",
      "src/local/test/rewrite-as-format-3.ts",
      "dist/local/test/recompute-checksums.js",
      "test/fixtures.ts",
    ];
    expect(unwantedPackedFiles(listed).map((file) => `${file.path}: ${file.reason}`)).toEqual([
      "dist/local/open-local-search-port.test.js: a test file",
      "src/retriever/classify-attempt.test.ts: a test file",
      "dist/pinecone/pinecone-port-test-fixtures.d.ts: a test fixture",
      "src/local/test/rewrite-as-format-3.ts: under a test folder",
      "dist/local/test/recompute-checksums.js: under a test folder",
      "test/fixtures.ts: under a test folder",
    ]);
  });

  it("keeps what users need: the ./testing subpath, code whose name holds 'test', data, README", () => {
    const listed = [
      "package/package.json",
      "package/README.md",
      "package/dist/testing/index.js",
      "package/src/testing/describe-port-conformance.ts",
      "package/dist/common-term-test.js",
      "package/src/common-term-test.ts",
      "package/dist/testing.d.ts",
      "package/data/glove.int8.bin",
      "package/",
      "",
    ];
    expect(unwantedPackedFiles(listed)).toEqual([]);
  });
});
