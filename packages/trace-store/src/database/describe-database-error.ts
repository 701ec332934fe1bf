/** The longest cause quoted in a trace store error. */
const causeLength = 300;

/** What a database driver's error says, without the statement or its parameters. */
export interface DatabaseErrorDescription {
  /** The driver's own message, first line only, cut at 300 characters. */
  message: string;
  /** The SQLSTATE, when the server (or PGlite) answered with one. */
  sqlState: string | undefined;
  /**
   * The server refused the data of the statement (SQLSTATE classes 22 data exception, 23
   * integrity, 54 limit exceeded). Only an insert's caller may take this for a refused
   * record: the same classes during open or migrate are the database's own trouble.
   */
  refusedData: boolean;
  /**
   * The connection failed: a known network error (ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPIPE,
   * ENOTFOUND, EHOSTUNREACH, a connection terminated or timed out) or SQLSTATE classes 08 and
   * 57P. An outage, retrying can help.
   */
  connectionLost: boolean;
  /** Neither a SQLSTATE nor a known network error: the driver (or its serialiser) failed by itself. */
  driverFailure: boolean;
}

/** The `code` of a Node socket error that means the server cannot be reached (now). */
const networkCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  "ECONNABORTED",
]);
/** What `pg` says, without a code, when the connection broke or could not be made in time. */
const networkMessages =
  /^(Connection terminated|timeout expired|timeout exceeded when trying to connect|Connection timeout|Query read timeout|Client has encountered a connection error)|^connect E[A-Z]+ /i;

/**
 * Looks through the wrappers of a driver error (Drizzle's `DrizzleQueryError`, whose message
 * quotes the SQL and every parameter; `AggregateError` of a failed connect) to the driver's
 * own error, and describes it in one line.
 */
export function describeDatabaseError(error: unknown): DatabaseErrorDescription {
  const root = driverError(error);
  const code = (root as { code?: unknown } | undefined)?.code;
  const sqlState = typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !networkCodes.has(code) ? code : undefined;
  const message = oneLine(messageOf(root));
  const network = sqlState === undefined && ((typeof code === "string" && networkCodes.has(code)) || networkMessages.test(message));
  const connectionLost = network || (sqlState !== undefined && /^(08|57P)/.test(sqlState));
  return {
    message,
    sqlState,
    refusedData: sqlState !== undefined && /^(22|23|54)/.test(sqlState),
    connectionLost,
    driverFailure: sqlState === undefined && !connectionLost,
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
