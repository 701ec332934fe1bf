import { setFlagsFromString } from "node:v8";

// Issue 36 item 6: V8 optimises a function once it has run a set amount of bytecode (its
// "interrupt budget", 66 KB by default), on background threads that count in the process's CPU
// time. A CLI process is short: much of that compiling is for code that runs only a little
// longer, and a cold ingest of the APISIX docs (2,518 chunks) spent about 13% less CPU with a
// budget four times the default, its 'written in' the same within the noise (bench/ingest-peers
// README, seventh pass). A long process (a server) pays the difference once.

/** The interrupt budget the bin runs with: four times V8's default. */
export const interruptBudget = 4 * 67_584;

/**
 * Gives V8 the bin's interrupt budget, first thing, unless the process was started with one of
 * its own (`node --interrupt-budget=...`), which is left as given. `setFlags`: for tests.
 */
export function optimiseLater(execArgv: readonly string[] = process.execArgv, setFlags = setFlagsFromString): void {
  if (execArgv.some((argument) => argument.startsWith("--interrupt-budget") || argument.startsWith("--interrupt_budget"))) return;
  setFlags(`--interrupt-budget=${interruptBudget}`);
}
