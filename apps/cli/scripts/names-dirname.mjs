// Whether a third-party module the CLI's bundle would copy uses `__dirname` or `__filename`
// (scripts/bundle-cli.mjs refuses it: bundled, they would name the bundle, not the package).
import { transformSync } from "esbuild";

const dirnameOrFilename = /\b__(dirname|filename)\b/;

/**
 * Whether `source` (the module at `path`) names `__dirname` or `__filename` outside its
 * comments: commander names `__dirname` only in its documentation comments (issue 36 item 5).
 * A name inside a string still counts.
 */
export function namesDirname(source, path) {
  return dirnameOrFilename.test(source) && dirnameOrFilename.test(withoutComments(source, path));
}

/** `source` with its comments left out (printed again by esbuild without whitespace: a `//` inside a string stays). */
function withoutComments(source, path) {
  const loader = path.endsWith(".ts") ? "ts" : "js";
  return transformSync(source, { loader, minifyWhitespace: true, legalComments: "none" }).code;
}
