import { packageTestConfig } from "@lookup-knowledge/vitest-config";

const shared = packageTestConfig();

/** Only the live tests (`*.int.test.ts`), which the shared preset leaves out: `pnpm test:int`. */
export default {
  ...shared,
  test: {
    ...shared.test,
    include: ["src/**/*.int.test.ts"],
    exclude: ["**/node_modules/**", "**/dist/**"],
    testTimeout: 300_000,
  },
};
