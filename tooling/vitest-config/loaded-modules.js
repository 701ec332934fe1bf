import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const recorder = fileURLToPath(new URL("./record-loaded-modules.js", import.meta.url));

/**
 * Runs `node <args>` in a child process that records every module it loads (through a
 * module loader hook), and returns the URLs loaded, in order, with the process's exit code
 * and output. For tests of what a command or an entry point loads, and so what it costs at
 * start. `codeCached` lists apart the files a process compiled itself under a V8 code cache (the
 * CLI's query path), which the hook does not see. `options.env`, when given, is the child's whole environment (default: this one's).
 */
export function loadedModules(args, options = {}) {
  const folder = mkdtempSync(join(tmpdir(), "loaded-modules-"));
  const list = join(folder, "loaded.txt");
  try {
    const child = spawnSync(process.execPath, ["--import", recorder, ...args], {
      encoding: "utf8",
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), LOOKUP_KNOWLEDGE_LOADED_MODULES_FILE: list },
      timeout: options.timeoutMs ?? 60_000,
    });
    let lines = [];
    try {
      lines = readFileSync(list, "utf8")
        .split("\n")
        .filter((line) => line !== "");
    } catch {
      // Nothing recorded: the process failed before loading a module; its output says why.
    }
    const urls = lines.filter((line) => !line.startsWith("code-cached "));
    const codeCached = lines.filter((line) => line.startsWith("code-cached ")).map((line) => line.slice("code-cached ".length));
    return { urls, codeCached, status: child.status, stdout: child.stdout, stderr: child.stderr };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
