// What the table scripts share: failing with a message, and the folder they write to.
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** This package's folder. */
export const packageRoot = fileURLToPath(new URL("..", import.meta.url));

/** Prints `message` and ends the process with status 1. */
export function fail(message) {
  console.error(message);
  process.exit(1);
}

/** The folder a script writes to: `--out <folder>` when given, else this package's `data/`; `usage` when `--out` has no folder. */
export function outputFolder(argumentsGiven, usage) {
  const outFlag = argumentsGiven.indexOf("--out");
  if (outFlag === -1) return { outFolder: join(packageRoot, "data"), custom: false };
  return { outFolder: resolve(argumentsGiven[outFlag + 1] ?? fail(usage)), custom: true };
}
