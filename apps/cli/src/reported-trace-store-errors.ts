/** The messages the trace store has reported on stderr, so the command's own error does not repeat one. */
export const reportedTraceStoreErrors = new Set<string>();
