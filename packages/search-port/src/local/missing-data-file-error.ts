/**
 * A data file was missing: the caller may re-read the manifest (a writer may have moved on) and retry.
 * Internal: it never leaves the package (callers turn it into a `CorruptIndexError`); its
 * message is the file's name.
 */
export class MissingDataFileError extends Error {}
