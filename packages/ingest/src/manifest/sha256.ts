import * as crypto from "node:crypto";

/**
 * The one-shot `crypto.hash` (Node 20.12 and later): about three times faster than a
 * `createHash` object for a short chunk, which an ingest hashes thousands of. The package
 * runs from Node 20.10, where only `createHash` is there.
 */
const oneShot = typeof crypto.hash === "function" ? crypto.hash : undefined;

/** sha256 of a string (as UTF-8) or bytes, in hex. */
export function sha256(value: string | Uint8Array): string {
  if (oneShot !== undefined) return oneShot("sha256", value, "hex");
  return crypto.createHash("sha256").update(value).digest("hex");
}
