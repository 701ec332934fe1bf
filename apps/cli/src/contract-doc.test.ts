import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { citedRequirementIds } from "./test/cited-requirement-ids.js";
import { contractIds, contractProblems, contractTestFiles } from "./test/contract-problems.js";

// docs/contract.md states R1-R29 and, under each, the test files that prove it: this test
// keeps that list true as tests move or are renamed (issue 34, item 4).

const root = fileURLToPath(new URL("../../../", import.meta.url));
const readTestFile = (path: string): string | undefined => {
  const file = join(root, path);
  return existsSync(file) ? readFileSync(file, "utf8") : undefined;
};

describe("docs/contract.md", () => {
  const markdown = readFileSync(join(root, "docs/contract.md"), "utf8");

  it("states every requirement R1-R29 once and names tests for each", () => {
    const sections = contractTestFiles(markdown);
    expect([...sections.keys()].sort((a, b) => a - b)).toEqual(contractIds);
    for (const files of sections.values()) expect(files.length).toBeGreaterThan(0);
  });

  it("names only test files that exist and whose test titles cite the requirement they prove", () => {
    expect(contractProblems(markdown, readTestFile)).toEqual([]);
  });
});

describe("contractProblems", () => {
  const sources: Record<string, string> = {
    "all.test.ts": contractIds.map((id) => `it("R${id}: proves it", () => {});`).join("\n"),
    "a.test.ts": `it("R1: runs the stages in order", () => {});\nit.each([1])("R2, R3: %s", () => {});`,
    "b.test.ts": `describe("filters", () => {\n  it('R12: keeps the caller filter', () => {});\n});\n// R7: a comment is no title`,
  };
  const read = (path: string): string | undefined => sources[path];

  it("finds nothing wrong when every id has a section whose files cite it", () => {
    const markdown = contractIds.map((id) => `### R${id}: a requirement\n\nIn our words.\n\n- \`all.test.ts\``).join("\n\n");
    expect(contractProblems(markdown, read)).toEqual([]);
  });

  it("reports a missing id, an id without tests, a file that does not exist and a file whose titles do not cite the id", () => {
    const markdown = [
      "## Pipeline",
      "### R1: stages",
      "- `a.test.ts`",
      "- `gone.test.ts`",
      "### R2: one tool",
      "Nothing listed.",
      "### R12: caller filters",
      "- `b.test.ts`",
      "### R7: one domain",
      "- `b.test.ts`",
      "## Words",
      "- `a.test.ts` under no requirement is not checked",
    ].join("\n");
    const problems = contractProblems(markdown, read);
    expect(problems).toContain("R3 has no section");
    expect(problems).toContain("R29 has no section");
    expect(problems).toContain("R2 names no test file");
    expect(problems).toContain("R1: gone.test.ts does not exist");
    expect(problems).toContain("R7: no test title in b.test.ts cites R7");
    expect(problems.filter((problem) => problem.startsWith("R1:") || problem.startsWith("R12"))).toEqual([
      "R1: gone.test.ts does not exist",
    ]);
  });

  it("refuses an id beyond the contract", () => {
    expect(contractProblems("### R30: more\n- `a.test.ts`", read)).toContain("R30 is not a requirement of the contract");
  });
});

describe("citedRequirementIds", () => {
  it("reads ids from test and suite titles only, not from comments or assertions", () => {
    const source = [
      `describe("L1 filter and retry (R7-R12)", () => {`,
      `  it("R8, R9: retries", () => {});`,
      "  it.skipIf(slow)(`R10: a usable attempt is final`, () => {});",
      `  test.each([[1]])('R28: drops %s', () => {});`,
      `  // R11: not a title`,
      `  expect(message).toBe("R13: not a title");`,
      `  it("R290 names no requirement", () => {});`,
      `});`,
    ].join("\n");
    expect([...citedRequirementIds(source)].sort((a, b) => a - b)).toEqual([7, 8, 9, 10, 12, 28]);
  });
});
