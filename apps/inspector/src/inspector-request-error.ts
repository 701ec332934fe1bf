import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { InspectorErrorCode } from "./inspector-error-code.js";

/** A request the inspector refuses, with the HTTP status to answer and a message naming what was wrong. */
export class InspectorRequestError extends LookupKnowledgeError<InspectorErrorCode> {
  readonly status: number;

  constructor(options: { status: number; code: InspectorErrorCode; message: string; cause?: unknown }) {
    super({ code: options.code, message: options.message, ...(options.cause === undefined ? {} : { cause: options.cause }) });
    this.name = "InspectorRequestError";
    this.status = options.status;
  }
}
