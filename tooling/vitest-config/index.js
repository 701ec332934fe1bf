import { defineConfig, mergeConfig } from "vitest/config";

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
      },
    }),
    overrides,
  );
}
