import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig } from "vitest/config";

/** The shared datasets: `$LOOKUP_KNOWLEDGE_DATASETS`, else `../shared/datasets` beside the repository (read only). */
export const datasetsDirectory =
  process.env.LOOKUP_KNOWLEDGE_DATASETS ?? fileURLToPath(new URL("../../../shared/datasets/", import.meta.url));

/**
 * Whether tests that read the datasets skip: only outside CI, when the folder is missing
 * (a clone without `../shared`). In CI they run, and fail loudly if the datasets are gone.
 */
export const skipWithoutDatasets = !existsSync(datasetsDirectory) && !process.env.CI;

/** What a skipped dataset test prints once per test file, like the PostgreSQL suites do. */
export const datasetsSkipMessage = `Skipping the tests that read the shared datasets: ${datasetsDirectory} does not exist (put the shared folder beside the repository, or set LOOKUP_KNOWLEDGE_DATASETS to its datasets folder; in CI they run and fail instead).`;

let saidWhy = false;

/**
 * A test or suite name, saying so when it skips for want of the datasets; the first such
 * name of a test file also prints why on stderr, so a plain `pnpm test` shows it.
 */
export function needsDatasets(name) {
  if (!skipWithoutDatasets) return name;
  if (!saidWhy) {
    saidWhy = true;
    console.warn(datasetsSkipMessage);
  }
  return `${name} (skipped: no datasets at ${datasetsDirectory})`;
}

/**
 * The shared preset: unit tests sit beside the code as `*.test.ts`; tests that need a live
 * service are `*.int.test.ts` and are left out of the default `pnpm test`; run one by
 * passing `--exclude ''` and its path to `vitest run`.
 */
export function packageTestConfig(overrides = {}) {
  return mergeConfig(
    defineConfig({
      test: {
        include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        exclude: ["**/node_modules/**", "**/dist/**", "**/*.int.test.ts"],
        environment: "node",
        testTimeout: 60_000,
        hookTimeout: 120_000,
        // A trace server a test starts leaves soon after its last client (default 15 s), so
        // test files do not keep embedded databases in memory after they are done.
        env: { LOOKUP_KNOWLEDGE_TRACE_SERVER_IDLE_MS: "2000" },
      },
    }),
    overrides,
  );
}
