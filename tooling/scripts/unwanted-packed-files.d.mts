/** A file a published tarball should not hold, and why. */
export interface UnwantedPackedFile {
  path: string;
  reason: string;
}

/**
 * The files of a tarball that users do not need (`*.tsbuildinfo`, `*.test.*`,
 * `*-test-fixtures*`, anything under a `test` folder), given its paths relative to the package
 * root; a leading `package/`, as `tar -t` prints it, is dropped.
 */
export function unwantedPackedFiles(paths: readonly string[]): UnwantedPackedFile[];
