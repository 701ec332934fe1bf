/** The longest cause quoted in a trace store error. */
const causeLength = 300;

/** What a database driver's error says, without the statement or its parameters. */
export interface DatabaseErrorDescription {
  /** The driver's own message, first line only, cut at 300 characters. */
  message: string;
  /** The SQLSTATE, when the server (or PGlite) answered with one. */
  sqlState: string | undefined;
  /** The server refused this data (SQLSTATE classes 22 data exception, 23 integrity, 54 limit exceeded): retrying cannot help. */
  refusedData: boolean;
  /** The connection failed (no SQLSTATE, or classes 08, 28, 3D, 57P): an outage, retrying can help. */
  connectionLost: boolean;
}

/**
 * Looks through the wrappers of a driver error (Drizzle's `DrizzleQueryError`, whose message
 * quotes the SQL and every parameter; `AggregateError` of a failed connect) to the driver's
 * own error, and describes it in one line.
 */
export function describeDatabaseError(error: unknown): DatabaseErrorDescription {
  const root = driverError(error);
  const code = (root as { code?: unknown } | undefined)?.code;
  const sqlState = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  return {
    message: oneLine(messageOf(root)),
    sqlState,
    refusedData: sqlState !== undefined && /^(22|23|54)/.test(sqlState),
    connectionLost: sqlState === undefined || /^(08|28|3D|57P)/.test(sqlState),
  };
}

function driverError(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 8; depth += 1) {
    if (current instanceof AggregateError && current.errors.length > 0) {
      current = current.errors[0];
      continue;
    }
    const cause = (current as { cause?: unknown } | undefined)?.cause;
    // Drizzle wraps the driver's error and puts the statement and parameters in its message.
    const wrapper = current instanceof Error && (current.name === "DrizzleQueryError" || current.message.startsWith("Failed query:"));
    if (wrapper && cause !== undefined) {
      current = cause;
      continue;
    }
    break;
  }
  return current;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || (error as { code?: string }).code || error.name;
  return String(error);
}

function oneLine(text: string): string {
  const line = (text.split(/\r?\n/, 1)[0] ?? "").trim();
  return line.length <= causeLength ? line : `${line.slice(0, causeLength - 1)}…`;
}
