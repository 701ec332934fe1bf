#!/usr/bin/env node
import { loadCommandLine } from "./load-command-line.js";
import { loadQueryPath } from "./load-query-path.js";
import { optimiseLater } from "./optimise-later.js";

// Issue 36 item 5: the bin's entry. The command line itself (`command-line.ts`) is loaded apart,
// so that in the bin it runs from one CommonJS file under a V8 code cache
// (load-command-line-bundled.ts) and the query path from another (load-query-path-bundled.ts).
// The dynamic imports of both files are resolved from this one's folder (code-cached-module.ts).
// Issue 36 item 6: V8's interrupt budget is set before the command line's modules run.
optimiseLater();
const { runCommandLine } = await loadCommandLine();
await runCommandLine(loadQueryPath);
