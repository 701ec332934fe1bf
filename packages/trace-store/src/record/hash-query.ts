import { createHmac } from "node:crypto";

/** What a hashed query starts with in a record. */
export const queryHashPrefix = "hmac-sha256:";

/**
 * The keyed hash a trace store keeps instead of a query's text when queries must not be
 * stored: `hmac-sha256:` and the hex HMAC-SHA256 of the exact text with `key`. To find the
 * records of a query later, hash the same text with the same key and compare.
 */
export function hashQuery(text: string, key: string): string {
  return `${queryHashPrefix}${createHmac("sha256", key).update(text, "utf8").digest("hex")}`;
}

/** What a hashed term (a hit reason's quoted term, an L0 hint) starts with in a record. */
export const queryTermHashPrefix = "hash:";

/**
 * The short keyed hash a trace store keeps instead of a term taken from a query (a hit
 * reason's quoted term, an L0 keyword, entity or title) when queries must not be stored:
 * `hash:` and the first 12 hex of the HMAC-SHA256 of the exact term with `key`, the key of
 * `hashQuery`.
 */
export function hashQueryTerm(text: string, key: string): string {
  return `${queryTermHashPrefix}${createHmac("sha256", key).update(text, "utf8").digest("hex").slice(0, 12)}`;
}
