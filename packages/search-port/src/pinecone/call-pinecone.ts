import { TimeoutError, errorMessage } from "@lookup-knowledge/core";
import { abortReason, delay, raceWithAbort, throwIfAborted } from "../internal/abort.js";
import { PineconePortError } from "./pinecone-port-error.js";

/** How the adapter retries and times out each call to Pinecone. */
export interface CallPolicy {
  /** Retries after the first attempt, for 429, 5xx, unreachable and timed-out calls. */
  maxRetries: number;
  /** Time limit of one attempt. */
  timeoutMs: number;
  /** The first backoff; it doubles with every retry, up to `retryMaxDelayMs`, with full jitter. */
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
}

interface Failure {
  retryable: boolean;
  status?: number;
  error: unknown;
}

/**
 * Runs one Pinecone call under the policy: each attempt is limited to `timeoutMs` (the HTTP
 * request is abandoned, not cancelled: the client takes no signal); 429, 5xx, connection
 * failures and timeouts are retried with exponential backoff and full jitter, at most
 * `maxRetries` times; anything else fails at once with a `PineconePortError` that names the
 * operation and the cause. An aborted signal stops everything and rejects with its reason.
 */
export async function callPinecone<T>(
  operation: string,
  run: () => Promise<T>,
  policy: CallPolicy,
  signal: AbortSignal | undefined,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    throwIfAborted(signal);
    try {
      return await withTimeout(run(), operation, policy.timeoutMs, signal);
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      const failure = classify(error, operation);
      if (!failure.retryable) throw finalError(failure, operation, attempt);
      if (attempt > policy.maxRetries) throw finalError(failure, operation, attempt);
      await delay(backoff(attempt, policy), signal);
    }
  }
}

function withTimeout<T>(promise: Promise<T>, operation: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimeoutError({ operation: `Pinecone ${operation}`, timeoutMs })), timeoutMs);
  });
  // A late rejection of an abandoned attempt must not surface as an unhandled rejection.
  promise.catch(() => {});
  return raceWithAbort(Promise.race([promise, timeout]), signal).finally(() => clearTimeout(timer));
}

function backoff(attempt: number, policy: CallPolicy): number {
  const ceiling = Math.min(policy.retryMaxDelayMs, policy.retryBaseDelayMs * 2 ** (attempt - 1));
  return Math.random() * ceiling;
}

/** HTTP statuses of the client's error classes (it keeps no status field). */
const statusByName: Record<string, number> = {
  PineconeBadRequestError: 400,
  PineconeAuthorizationError: 401,
  PineconeNotFoundError: 404,
  PineconeMethodNotAllowedError: 405,
  PineconeConflictError: 409,
  PineconeUnprocessableEntityError: 422,
  PineconeInternalServerError: 500,
  PineconeNotImplementedError: 501,
  PineconeUnavailableError: 503,
};

function classify(error: unknown, operation: string): Failure {
  if (TimeoutError.isInstance(error)) return { retryable: true, error };
  if (PineconePortError.isInstance(error)) return { retryable: error.retryable, error, ...statusOf(error.status) };
  const name = error instanceof Error ? error.name : "";
  if (name === "PineconeConnectionError") return { retryable: true, error };
  // The client retries 5xx itself (its `maxRetries`) and then throws this, without the status.
  if (name === "PineconeMaxRetriesExceededError") return { retryable: true, error };
  let status = statusByName[name];
  if (name === "PineconeUnmappedHttpError") {
    const match = /Status: (\d{3})/.exec(errorMessage(error));
    status = match === null ? undefined : Number(match[1]);
  }
  if (status !== undefined) return { retryable: status === 429 || (status >= 500 && status !== 501), status, error };
  if (name === "PineconeArgumentError") return { retryable: false, error };
  if (error instanceof SyntaxError || error instanceof TypeError) {
    return {
      retryable: false,
      error: new PineconePortError({
        code: "pinecone_malformed_response",
        operation,
        message: `Pinecone ${operation} answered with a body that could not be read: ${errorMessage(error)}`,
        cause: error,
      }),
    };
  }
  return { retryable: false, error };
}

function statusOf(status: number | undefined): { status?: number } {
  return status === undefined ? {} : { status };
}

function finalError(failure: Failure, operation: string, attempts: number): unknown {
  const { error, status } = failure;
  if (TimeoutError.isInstance(error) || PineconePortError.isInstance(error)) return error;
  const detail = errorMessage(error);
  if (failure.retryable) {
    const tries = attempts === 1 ? "1 attempt" : `${attempts} attempts`;
    return new PineconePortError({
      code: "pinecone_unavailable",
      operation,
      status,
      attempts,
      cause: error,
      message: `Pinecone ${operation} failed after ${tries}${status === undefined ? "" : ` (last: HTTP ${status})`}: ${detail}`,
    });
  }
  return new PineconePortError({
    code: "pinecone_rejected",
    operation,
    status,
    attempts,
    cause: error,
    message: `Pinecone refused ${operation}${status === undefined ? "" : ` (HTTP ${status}${hint(status)})`}: ${detail}`,
  });
}

function hint(status: number): string {
  if (status === 401) return ", check the API key";
  if (status === 403) return ", the API key may not use this index";
  if (status === 404) return ", check the index host and namespace";
  return "";
}
