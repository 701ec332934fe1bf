import { fileURLToPath } from "node:url";

/**
 * The real command as it ships: the package's `bin`, the bundled `dist/bundle/main.js`
 * (scripts/bundle-cli.mjs; turbo builds the package before its tests).
 */
export const builtCli = fileURLToPath(new URL("../../dist/bundle/main.js", import.meta.url));
