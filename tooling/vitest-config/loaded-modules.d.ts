/** What `loadedModules` saw: the module URLs loaded in order, the exit code and the output. */
export interface LoadedModules {
  urls: string[];
  /** The files it compiled itself under a V8 code cache (the CLI's query path), which the module hooks do not see. */
  codeCached: string[];
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` in a child process that records every module it loads; `env` is its whole environment (default: this one's). */
export declare function loadedModules(
  args: readonly string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): LoadedModules;
