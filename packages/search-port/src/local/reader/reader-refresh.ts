/** Why a reader's last refresh failed: the newer commit it could not load (see `LocalIndexStats.refreshError`). */
export interface RefreshError {
  /** The error's code (`corrupt_index`, `embedder_mismatch`, `analyzer_mismatch`, ...); `refresh_failed` when it has none. */
  code: string;
  /** The error's message. */
  message: string;
  /** When the reader tried, and failed, to load it (ISO 8601). */
  failedAt: string;
}

/** The default of `onRefreshError`: one `console.warn` per commit a reader cannot load. */
export function warnRefreshError(error: Error): void {
  console.warn(`lookup-knowledge: a reader could not load the newer commit and keeps serving the one it has: ${error.message}`);
}

function describe(error: unknown): RefreshError {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return { code: typeof code === "string" && code !== "" ? code : "refresh_failed", message, failedAt: new Date().toISOString() };
}

/** What `attemptRefresh` found. */
export interface RefreshOutcome {
  /** Whether the manifest signature that prompted the refresh is done with (loaded, or failed and reported). */
  accept: boolean;
  /** The failure to show now: the new one, undefined after a successful load, else the earlier one. */
  error: RefreshError | undefined;
}

/**
 * Runs a reader's refresh, `load` (which returns whether it is done with the manifest it
 * saw; false when the manifest vanished meanwhile). When it throws (the new commit is
 * corrupt, or was written with another embedder or analyser) and a generation is already
 * loaded (`loaded`), the reader keeps serving that one: the error is reported once through
 * `report` and returned, and the outcome accepts the manifest signature, so the same failing
 * commit is not loaded again on every check, only once the manifest changes again. With
 * nothing loaded the error is thrown.
 */
export function attemptRefresh(
  load: () => boolean,
  options: { loaded: boolean; previous: RefreshError | undefined; report: (error: Error) => void },
): RefreshOutcome {
  let accept: boolean;
  try {
    accept = load();
  } catch (error) {
    if (!options.loaded) throw error;
    try {
      options.report(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A failing report must not fail the search it runs in.
    }
    return { accept: true, error: describe(error) };
  }
  return { accept, error: accept ? undefined : options.previous };
}
