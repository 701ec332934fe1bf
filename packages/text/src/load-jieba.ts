import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Jieba } from "@node-rs/jieba";

/** The version of `@node-rs/jieba` this release is tested with (an optional peer dependency; a test checks it). */
export const jiebaVersion = "2.0.3";

/** The mark of the library's errors, as `LookupKnowledgeError` sets it (core's `errors.ts`). */
const libraryErrorMark: unique symbol = Symbol.for("lookup-knowledge.error") as typeof libraryErrorMark;

/**
 * Chinese (and other CJK) text is cut into words by jieba, which comes from the package
 * `@node-rs/jieba`: an optional peer dependency, needed only when such text is ingested or
 * asked. Without it, the first CJK text to cut throws this error, naming the package and the
 * command that installs it. It is a library error like the others: code `jieba_missing`, not
 * retryable.
 */
export class MissingJiebaError extends Error {
  // The mark every error of this library carries (`LookupKnowledgeError.isInstance` reads it;
  // this package sits below core, so it sets the mark rather than extending the class): a
  // lookup that meets this error reports its code, `jieba_missing`, not a bare search failure.
  private readonly [libraryErrorMark] = true;
  readonly code = "jieba_missing";
  readonly retryable = false;
  readonly packageName = "@node-rs/jieba";

  constructor(cause: unknown) {
    super(
      `Chinese, Japanese or Korean text is cut into words by jieba, from the package @node-rs/jieba, which is not installed: run \`npm install @node-rs/jieba@${jiebaVersion}\` (or your package manager's equivalent).`,
      { cause },
    );
    this.name = "MissingJiebaError";
  }
}

/** `require(name)` from this package; a missing `@node-rs/jieba` is `MissingJiebaError`. */
function requireJieba<T>(load: (require: NodeJS.Require) => T): T {
  try {
    return load(createRequire(import.meta.url));
  } catch (error) {
    const missing =
      (error as { code?: unknown }).code === "MODULE_NOT_FOUND" && /'@node-rs\/jieba(\/[^']*)?'/.test(String((error as Error).message));
    throw missing ? new MissingJiebaError(error) : error;
  }
}

/** jieba's class, from the prebuilt binary of `@node-rs/jieba` (loading it takes a few ms). */
export function loadJiebaClass(): typeof Jieba {
  return requireJieba((require) => (require("@node-rs/jieba") as typeof import("@node-rs/jieba")).Jieba);
}

/**
 * The bytes of the dictionary bundled in `@node-rs/jieba` (`dict.txt`, 5 MB), read directly:
 * its `dict.js` also reads the 6 MB IDF table, which segmentation does not use.
 */
export function readBundledDictionary(): Uint8Array {
  return requireJieba((require) => readFileSync(require.resolve("@node-rs/jieba/dict.txt")));
}

/**
 * The bundled dictionary's size in bytes and the sum of its word frequencies, so the sum is
 * not worked out again on every start (about 10 ms). A test checks it against the file; a
 * dictionary of another size gets its sum worked out.
 */
export const bundledDictionaryTotal = { bytes: 5_071_843, total: 60_101_964 } as const;
