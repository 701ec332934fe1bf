import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const webProject = fileURLToPath(new URL("../web/tsconfig.json", import.meta.url));

// The page imports the server's answer types (`InspectorApi`) as types only; its tsconfig
// references the server's project, so its check reads the server's declarations from `dist`
// (written by `tsc -b`, which `pnpm build` runs first, and turbo runs before `test`).
it("issue 34: the page type-checks against what the server answers (InspectorApi), so a changed answer fails here", () => {
  const run = spawnSync(process.execPath, [tsc, "-p", webProject, "--pretty", "false"], { encoding: "utf8" });
  const output = `${run.stdout}${run.stderr}`.trim();
  const hint = /TS6305/.test(output) ? "\n(The server's declarations are missing: run `pnpm build` in apps/inspector first.)" : "";
  expect(`${output}${hint}`).toBe("");
  expect(run.status).toBe(0);
}, 120_000);
