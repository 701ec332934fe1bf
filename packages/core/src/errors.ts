const marker = "lookup-knowledge.error";
const symbol = Symbol.for(marker);

/** The codes of the errors `@lookup-knowledge/core` throws. */
export type CoreErrorCode = "invalid_configuration" | "invalid_query" | "invalid_filter" | "timeout";

/**
 * The base of every error this library throws. `code` is stable and meant for programs;
 * `message` is for people. `isInstance` works across bundles and realms, where
 * `instanceof` does not. Each package names its codes in one union type (`CoreErrorCode`,
 * `IngestErrorCode`, `SearchPortErrorCode`, ...) and throws `LookupKnowledgeError<ThatUnion>`
 * or a subclass, so a code made up on the spot does not compile.
 */
export class LookupKnowledgeError<Code extends string = string> extends Error {
  private readonly [symbol] = true;
  readonly code: Code;
  /** Whether trying the same call again can help (a timeout can, a bad value cannot). */
  readonly retryable: boolean;

  constructor(options: { code: Code; message: string; cause?: unknown; retryable?: boolean }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "LookupKnowledgeError";
    this.code = options.code;
    this.retryable = options.retryable ?? false;
  }

  static isInstance(error: unknown): error is LookupKnowledgeError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }

  protected static hasMarker(error: unknown, name: string): boolean {
    const markerSymbol = Symbol.for(name);
    return error != null && typeof error === "object" && markerSymbol in error && (error as Record<symbol, unknown>)[markerSymbol] === true;
  }
}

const configurationMarker = "lookup-knowledge.error.configuration";
const configurationSymbol = Symbol.for(configurationMarker);

/** A configuration value was refused. `key` is the flat key (`rag.return-n`) it was given under. */
export class ConfigurationError extends LookupKnowledgeError<"invalid_configuration"> {
  private readonly [configurationSymbol] = true;
  readonly key: string;
  readonly value: unknown;

  constructor(options: { key: string; value: unknown; reason: string }) {
    super({
      code: "invalid_configuration",
      message: `Invalid configuration ${options.key}=${describeValue(options.value)}: ${options.reason}`,
    });
    this.name = "ConfigurationError";
    this.key = options.key;
    this.value = options.value;
  }

  static override isInstance(error: unknown): error is ConfigurationError {
    return LookupKnowledgeError.hasMarker(error, configurationMarker);
  }
}

const queryMarker = "lookup-knowledge.error.invalid-query";
const querySymbol = Symbol.for(queryMarker);

/** The query cannot be looked up: not a string, or nothing left after normalisation. */
export class InvalidQueryError extends LookupKnowledgeError<"invalid_query"> {
  private readonly [querySymbol] = true;
  readonly value: unknown;

  constructor(options: { value: unknown; reason: string }) {
    super({ code: "invalid_query", message: `Invalid query ${describeValue(options.value)}: ${options.reason}` });
    this.name = "InvalidQueryError";
    this.value = options.value;
  }

  static override isInstance(error: unknown): error is InvalidQueryError {
    return LookupKnowledgeError.hasMarker(error, queryMarker);
  }
}

const filterMarker = "lookup-knowledge.error.invalid-filter";
const filterSymbol = Symbol.for(filterMarker);

/** A metadata filter is not a valid Pinecone-style filter. `path` points at the bad part. */
export class InvalidFilterError extends LookupKnowledgeError<"invalid_filter"> {
  private readonly [filterSymbol] = true;
  readonly path: string;

  constructor(options: { path: string; reason: string }) {
    super({ code: "invalid_filter", message: `Invalid metadata filter at ${options.path}: ${options.reason}` });
    this.name = "InvalidFilterError";
    this.path = options.path;
  }

  static override isInstance(error: unknown): error is InvalidFilterError {
    return LookupKnowledgeError.hasMarker(error, filterMarker);
  }
}

const timeoutMarker = "lookup-knowledge.error.timeout";
const timeoutSymbol = Symbol.for(timeoutMarker);

/** An operation ran past its time limit (`rag.l1-timeout-ms` for a search). */
export class TimeoutError extends LookupKnowledgeError<"timeout"> {
  private readonly [timeoutSymbol] = true;
  readonly operation: string;
  readonly timeoutMs: number;

  constructor(options: { operation: string; timeoutMs: number }) {
    super({
      code: "timeout",
      message: `${options.operation} did not answer within ${options.timeoutMs} ms`,
      retryable: true,
    });
    this.name = "TimeoutError";
    this.operation = options.operation;
    this.timeoutMs = options.timeoutMs;
  }

  static override isInstance(error: unknown): error is TimeoutError {
    return LookupKnowledgeError.hasMarker(error, timeoutMarker);
  }
}

/** A short, printable rendering of a value for error messages. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === "number" || typeof value === "boolean" || value == null) return String(value);
  if (Array.isArray(value)) return `array(${value.length})`;
  return typeof value;
}

/** The message of anything thrown, without trusting its shape. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === "string") return error;
  return describeValue(error);
}
