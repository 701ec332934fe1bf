import { citedRequirementIds } from "./cited-requirement-ids.js";

/** The contract's ids: R1 to R29. */
export const contractIds = Array.from({ length: 29 }, (_, index) => index + 1);

const heading = /^#{2,4}\s+R(\d+)\b/;
const testFile = /`([^`\s]+\.test\.ts)`/g;

/** Each requirement heading of `docs/contract.md` (`### R9: ...`) with the test files named in its section. */
export function contractTestFiles(markdown: string): Map<number, string[]> {
  const sections = new Map<number, string[]>();
  let current: string[] | undefined;
  for (const line of markdown.split("\n")) {
    const id = heading.exec(line);
    if (id !== null) {
      current = [];
      sections.set(Number(id[1]), current);
    } else if (line.startsWith("#")) {
      current = undefined;
    } else if (current !== undefined) {
      for (const file of line.matchAll(testFile)) current.push(file[1] as string);
    }
  }
  return sections;
}

/**
 * What is wrong with `docs/contract.md`: an id R1-R29 without a section or without a test file,
 * a listed test file that does not exist (`readTestFile` gives undefined), or one whose test
 * titles do not cite the id it is listed under.
 */
export function contractProblems(markdown: string, readTestFile: (path: string) => string | undefined): string[] {
  const problems: string[] = [];
  const sections = contractTestFiles(markdown);
  for (const id of contractIds) {
    const files = sections.get(id);
    if (files === undefined) problems.push(`R${id} has no section`);
    else if (files.length === 0) problems.push(`R${id} names no test file`);
  }
  for (const [id, files] of sections) {
    if (!contractIds.includes(id)) problems.push(`R${id} is not a requirement of the contract`);
    for (const file of files) {
      const source = readTestFile(file);
      if (source === undefined) problems.push(`R${id}: ${file} does not exist`);
      else if (!citedRequirementIds(source).has(id)) problems.push(`R${id}: no test title in ${file} cites R${id}`);
    }
  }
  return problems;
}
