import { createRequire } from "node:module";
import type { Jieba } from "@node-rs/jieba";

let loaded: Jieba | undefined;

/**
 * The jieba segmenter with the dictionary bundled in `@node-rs/jieba` (`@node-rs/jieba/dict`),
 * loaded on first use: loading costs about 130-200 ms (the dictionary is parsed), so text
 * without CJK characters never pays it. Synchronous, so analysis stays synchronous.
 */
export function loadJieba(): Jieba {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  const { Jieba: JiebaClass } = require("@node-rs/jieba") as typeof import("@node-rs/jieba");
  const { dict } = require("@node-rs/jieba/dict.js") as { dict: Uint8Array };
  loaded = JiebaClass.withDict(dict);
  return loaded;
}
