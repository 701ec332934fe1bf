import { createRequire } from "node:module";

// Issue 36 item 6: V8 optimises a function once it has run a set amount of bytecode (its
// "interrupt budget", 66 KB by default), on background threads that count in the process's CPU
// time. A CLI process is short: much of that compiling is for code that runs only a little
// longer, and a cold ingest of the APISIX docs (2,518 chunks) spent about 13% less CPU with a
// budget four times the default, its 'written in' the same within the noise (bench/ingest-peers
// README, seventh pass). A long process (a server) pays the difference once.
//
// Only Node 20's V8 (11.3), where that was measured, has the flag: later ones (Node 21's 11.8
// on) tier up by invocation counts, and V8 prints "unrecognized flag" for a flag it lacks.

/** The interrupt budget the bin runs with: four times V8's default. */
export const interruptBudget = 4 * 67_584;

// V8 takes one dash or two, and '-' and '_' alike, in a flag's name.
const ownBudget = /^--?interrupt[-_]budget(=|$)/;
// Setting a flag once they are frozen aborts the process.
const frozenFlags = /^--?freeze[-_]flags[-_]after[-_]init$/;

/**
 * Gives V8 the bin's interrupt budget, first thing, where its V8 has the flag, unless the process
 * was started with one of its own (`node --interrupt-budget=...`), which is left as given, or
 * with V8's flags frozen. `setFlags`, `v8Version`: for tests.
 */
export function optimiseLater(
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = setV8Flags,
  v8Version = process.versions.v8,
): void {
  if (!v8Version.startsWith("11.3.")) return;
  if (execArgv.some((argument) => ownBudget.test(argument) || frozenFlags.test(argument))) return;
  setFlags(`--interrupt-budget=${interruptBudget}`);
}

/**
 * node:v8's `setFlagsFromString`, loaded when a flag is set: a process that sets none (any on
 * Node 21 and later) does not load the module. Synchronous (a `require` of the built-in), so
 * the flag is set before the bin's other code is compiled (node:module: the bin loads it anyway, code-cached-module.ts).
 */
function setV8Flags(flags: string): void {
  const v8: typeof import("node:v8") = createRequire(import.meta.url)("node:v8");
  v8.setFlagsFromString(flags);
}
