/**
 * Worker-thread entry of the parse pool (see `parse-pool.ts`): parses the documents it is
 * sent with the options it was started with, and answers with the result or the reason
 * the document was refused.
 */
import { parentPort, workerData } from "node:worker_threads";
import { errorMessage } from "@lookup-knowledge/core";
import { DocumentError } from "../document/document-error.js";
import { parseMarkdownDocument } from "../document/parse-markdown-document.js";
import type { ParseRequest } from "./parse-request.js";
import type { ParseResponse } from "./parse-response.js";
import type { ResolvedIngestOptions } from "../options/resolve-ingest-options.js";

const options = workerData as ResolvedIngestOptions;
const port = parentPort;

port?.on("message", (request: ParseRequest) => {
  let response: ParseResponse;
  try {
    response = { id: request.id, document: parseMarkdownDocument(request.text, { source: request.source, options }) };
  } catch (error) {
    response = { id: request.id, error: { reason: DocumentError.isInstance(error) ? error.reason : errorMessage(error) } };
  }
  port.postMessage(response);
});
