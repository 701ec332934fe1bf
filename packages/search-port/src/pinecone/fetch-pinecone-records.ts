import { z } from "zod";
import { throwIfAborted } from "../internal/abort.js";
import { readRecordIds } from "../internal/read-record-ids.js";
import type { FetchedRecord, KnowledgeRecordReader } from "../knowledge-record-reader.js";
import { callPinecone } from "./call-pinecone.js";
import { namespaceOption, parsePineconeResponse } from "./parse-pinecone-response.js";
import { PineconePortError } from "./pinecone-port-error.js";
import type { PineconeSettings } from "./read-pinecone-settings.js";

const fetchResponseSchema = z.object({
  records: z.record(
    z.string(),
    z.object({
      id: z.string(),
      metadata: z.record(z.string(), z.unknown()).nullish(),
    }),
  ),
});

/**
 * The `fetchRecords` of the Pinecone port: one `fetch` by ids (the same call in every mode:
 * integrated records are vectors whose metadata holds their fields), through the port's
 * retries and error mapping. The text comes out of `textField` and the rest of the metadata
 * is returned as is, so a record reads exactly as `search` returns it, without a score.
 */
export function createPineconeFetch(settings: PineconeSettings): KnowledgeRecordReader["fetchRecords"] {
  const { index, namespace, policy, textField } = settings;

  return async function fetchRecords(ids, options) {
    const signal = options?.signal;
    throwIfAborted(signal);
    const wanted = readRecordIds(ids);
    if (wanted.length === 0) return [];
    const unique = [...new Set(wanted)];
    const response = await callPinecone("fetch", () => index.fetch({ ids: unique, ...namespaceOption(namespace) }), policy, signal);
    const { records } = parsePineconeResponse(fetchResponseSchema, response, "fetch");
    return wanted.map((id): FetchedRecord | undefined => {
      const record = Object.hasOwn(records, id) ? records[id] : undefined;
      if (record === undefined) return undefined;
      if (record.id !== id) {
        throw new PineconePortError({
          code: "pinecone_malformed_response",
          operation: "fetch",
          message: `Pinecone fetch answered a record ${JSON.stringify(record.id)} under the id ${JSON.stringify(id)}`,
        });
      }
      const { [textField]: text, ...metadata } = record.metadata ?? {};
      return { id, content: typeof text === "string" ? text : "", metadata };
    });
  };
}
