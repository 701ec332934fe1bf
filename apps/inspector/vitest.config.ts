import { packageTestConfig } from "@lookup-knowledge/vitest-config";

// The page's own unit tests (web/src) run here too; its browser tests are src/*.browser.test.ts.
export default packageTestConfig({ test: { include: ["web/src/**/*.test.ts"] } });
