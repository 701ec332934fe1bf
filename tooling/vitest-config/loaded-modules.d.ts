/** What `loadedModules` saw: the module URLs loaded in order, the exit code and the output. */
export interface LoadedModules {
  urls: string[];
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` in a child process that records every module it loads; `env` is its whole environment (default: this one's). */
export declare function loadedModules(
  args: readonly string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): LoadedModules;
