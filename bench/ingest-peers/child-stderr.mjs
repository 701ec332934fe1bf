// What the ingest benches say of a child process that failed: its stderr, bounded. Node's
// report of an uncaught error ends with its version line ("Node.js v20.20.2"), so the last
// line alone named nothing of what went wrong.

/** The lines of a child's stderr a failure report keeps: the end of a stack trace and its cause. */
export const reportedStderrLines = 40;

/** The last `reportedStderrLines` lines of `stderr` (trimmed), with a line saying how many were left out before them. */
export function childStderr(stderr) {
  const lines = (stderr ?? "").trim().split("\n");
  if (lines.length <= reportedStderrLines) return lines.join("\n");
  const left = lines.length - reportedStderrLines;
  return [`(${left} earlier line${left === 1 ? "" : "s"} left out)`, ...lines.slice(-reportedStderrLines)].join("\n");
}
