import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Jieba } from "@node-rs/jieba";

/** jieba's class, from the prebuilt binary of `@node-rs/jieba` (loading it takes a few ms). */
export function loadJiebaClass(): typeof Jieba {
  const require = createRequire(import.meta.url);
  return (require("@node-rs/jieba") as typeof import("@node-rs/jieba")).Jieba;
}

/**
 * The bytes of the dictionary bundled in `@node-rs/jieba` (`dict.txt`, 5 MB), read directly:
 * its `dict.js` also reads the 6 MB IDF table, which segmentation does not use.
 */
export function readBundledDictionary(): Uint8Array {
  const require = createRequire(import.meta.url);
  return readFileSync(require.resolve("@node-rs/jieba/dict.txt"));
}

/**
 * The bundled dictionary's size in bytes and the sum of its word frequencies, so the sum is
 * not worked out again on every start (about 10 ms). A test checks it against the file; a
 * dictionary of another size gets its sum worked out.
 */
export const bundledDictionaryTotal = { bytes: 5_071_843, total: 60_101_964 } as const;
