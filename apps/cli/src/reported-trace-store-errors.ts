// One set per process, whatever copy of this module a caller holds: in the bin, the command line
// (command-line.cjs), the query path (query-path.cjs) and the commands' chunks each bundle their
// own copy of it (issue 36 item 5), and the trace store's reports must reach the command's own error.
const processWide = Symbol.for("lookup-knowledge.cli.reported-trace-store-errors");
const holder = globalThis as { [processWide]?: Set<string> };

/** The messages the trace store has reported on stderr, so the command's own error does not repeat one. */
export const reportedTraceStoreErrors: Set<string> = holder[processWide] ?? new Set<string>();
holder[processWide] = reportedTraceStoreErrors;
