import { availableParallelism } from "node:os";
import { packageTestConfig } from "@lookup-knowledge/vitest-config";

// The dataset tests parse ~18 MB of Markdown in two independent files: run files side by side
// even on 2 cores, and give the parser a larger young generation (about a fifth faster).
export default packageTestConfig({
  test: {
    maxWorkers: Math.max(2, availableParallelism() - 1),
    execArgv: ["--max-semi-space-size=32"],
  },
});
