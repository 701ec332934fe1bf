import { createHash } from "node:crypto";

/** sha256 of a string (as UTF-8) or bytes, in hex. */
export function sha256(value: string | Uint8Array): string {
  return createHash("sha256").update(value).digest("hex");
}
