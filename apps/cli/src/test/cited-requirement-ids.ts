/**
 * The first string argument of a test or suite: `it("...")`, `test.skip('...')`,
 * `describe.skipIf(x)(`...`)`, `it.each([...])("...")`, `builtTest()("...")`.
 */
const testTitle = /(?:\b(?:it|test|describe)(?:\.\w+)*|\))\s*\(\s*(["'`])((?:\\.|(?!\1)[\s\S])*?)\1/g;
/** `R9` as a word, not the start of `R90`. */
const requirementId = /\bR(\d{1,2})(?!\d)/g;

/** The requirement numbers (`9` for R9) that the test and suite titles of a test file's source cite. */
export function citedRequirementIds(source: string): Set<number> {
  const ids = new Set<number>();
  for (const title of source.matchAll(testTitle)) {
    for (const id of (title[2] ?? "").matchAll(requirementId)) ids.add(Number(id[1]));
  }
  return ids;
}
