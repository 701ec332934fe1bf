// What a published tarball must not hold: files only the build or the tests need.
//   - `*.tsbuildinfo`: tsc's incremental state (it stays in `dist` so that deleting `dist`
//     rebuilds, and each package's `files` leaves it out);
//   - `*.test.*`: test files, compiled or not;
//   - `*-test-fixtures*`: helpers that only tests import;
//   - anything under a folder named `test`: the other test helpers.

const reasons = [
  { reason: "incremental build state", matches: (path) => fileName(path).endsWith(".tsbuildinfo") },
  { reason: "a test file", matches: (path) => fileName(path).includes(".test.") },
  { reason: "a test fixture", matches: (path) => fileName(path).includes("-test-fixtures") },
  { reason: "under a test folder", matches: (path) => path.split("/").slice(0, -1).includes("test") },
];

function fileName(path) {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * The files of a tarball that users do not need, each with why, given the tarball's paths
 * relative to the package root (`dist/index.js`; a leading `package/` as `tar -t` prints it,
 * or `./`, is dropped).
 */
export function unwantedPackedFiles(paths) {
  const unwanted = [];
  for (const listed of paths) {
    const path = listed.replace(/^(?:\.\/)?(?:package\/)?/, "");
    if (path === "" || path.endsWith("/")) continue;
    const found = reasons.find((candidate) => candidate.matches(path));
    if (found !== undefined) unwanted.push({ path, reason: found.reason });
  }
  return unwanted;
}
