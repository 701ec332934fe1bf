/**
 * One vector as an embedder gives it: a plain array of numbers, or a `Float32Array` /
 * `Float64Array` (a view into a larger buffer is fine). The writer quantises each straight
 * from what it got: no copy into a `number[]`.
 */
export type EmbeddedRow = number[] | Float32Array | Float64Array;

/**
 * The embeddings the local index takes: a LangChain `EmbeddingsInterface` (any
 * `Embeddings`), or any object with the same two methods whose `embedDocuments` answers
 * typed rows. When it also has `embedDocumentRows` (the offline embedder does), the writer
 * calls that instead of `embedDocuments`, so the one can answer `number[][]` to LangChain
 * callers and the other typed rows to the index.
 */
export interface LocalEmbeddings {
  embedQuery(document: string): Promise<number[]>;
  embedDocuments(documents: string[]): Promise<readonly EmbeddedRow[]>;
  embedDocumentRows?(documents: string[]): Promise<readonly EmbeddedRow[]>;
}

const tagOf = (value: object): string => Object.prototype.toString.call(value);

/**
 * Whether `value` is a row the writer takes (`EmbeddedRow`). Typed arrays are told by their
 * tag, so rows made in another realm (a `vm` context, a worker's transferred buffer) count too.
 */
export function isEmbeddedRow(value: unknown): value is EmbeddedRow {
  if (Array.isArray(value)) return true;
  if (!ArrayBuffer.isView(value)) return false;
  const tag = tagOf(value);
  return tag === "[object Float32Array]" || tag === "[object Float64Array]";
}

/** What a value that is not a row is, for an error message: `Int8Array`, `string`, `null`... */
export function describeRowKind(value: unknown): string {
  if (value === null) return "null";
  if (ArrayBuffer.isView(value)) return tagOf(value).slice(8, -1);
  return typeof value;
}
