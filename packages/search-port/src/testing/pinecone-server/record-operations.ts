import type { PineconeTestServerOptions } from "../pinecone-test-server.js";
import { HttpFailure } from "./http-failure.js";
import type { PineconeTestIndex } from "./pinecone-test-index.js";
import { parseJsonBody, parseRequest } from "./request-body.js";
import { metadataSchema } from "./request-schemas.js";
import type { SearchRecordsBody } from "./request-schemas.js";
import { serverFilter } from "./server-filter.js";

const maxUpsertRecords = 96;

/** `POST /records/namespaces/{namespace}/search`: the query text embedded by the index, the nearest records with the fields asked. */
export async function searchRecords(index: PineconeTestIndex, target: string, body: SearchRecordsBody): Promise<unknown> {
  const integrated = requireIntegrated(index);
  const [dense] = await integrated.embed([body.query.inputs.text], "query");
  index.checkDimension(dense, "query");
  const filter = body.query.filter === undefined ? undefined : serverFilter(body.query.filter);
  const hits = index.rank(index.namespace(target), dense, undefined, filter, body.query.top_k).map(({ vector, score }) => {
    const fields = vector.metadata ?? {};
    const chosen =
      body.fields === undefined
        ? fields
        : Object.fromEntries(body.fields.filter((name) => name in fields).map((name) => [name, fields[name]]));
    return { _id: vector.id, _score: score, fields: chosen };
  });
  return { result: { hits }, usage: { read_units: 1, embed_total_tokens: body.query.inputs.text.length } };
}

/** `POST /records/namespaces/{namespace}/upsert`: NDJSON records, each with an `_id` and its text in the field map's field, embedded by the index. */
export async function upsertRecords(index: PineconeTestIndex, target: string, body: string): Promise<void> {
  const integrated = requireIntegrated(index);
  const lines = body.split("\n").filter((line) => line.trim() !== "");
  if (lines.length > maxUpsertRecords) throw new HttpFailure(400, `Cannot upsert more than ${maxUpsertRecords} records in one request`);
  const records = lines.map((line, position) => {
    const value = parseJsonBody(line);
    if (value === null || typeof value !== "object" || Array.isArray(value))
      throw new HttpFailure(400, `line ${position + 1} is not a record`);
    const { _id, id, ...fields } = value as Record<string, unknown>;
    const recordId = _id ?? id;
    if (typeof recordId !== "string" || recordId === "") throw new HttpFailure(400, `line ${position + 1} has no _id`);
    const text = fields[integrated.textField];
    if (typeof text !== "string") throw new HttpFailure(400, `record ${recordId} has no text in field ${integrated.textField}`);
    return { id: recordId, text, metadata: parseRequest(metadataSchema, fields) };
  });
  const embedded = await integrated.embed(
    records.map((record) => record.text),
    "passage",
  );
  const vectors = index.namespace(target);
  records.forEach((record, position) => {
    const values = embedded[position] ?? [];
    index.checkDimension(values, `record ${record.id}`);
    vectors.set(record.id, { id: record.id, values, metadata: record.metadata });
  });
}

function requireIntegrated(index: PineconeTestIndex): NonNullable<PineconeTestServerOptions["integrated"]> {
  if (index.options.integrated === undefined) throw new HttpFailure(400, "This index is not configured for integrated inference");
  return index.options.integrated;
}
