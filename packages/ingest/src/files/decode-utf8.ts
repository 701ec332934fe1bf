import type { TextDecoder } from "node:util";
import { DocumentError } from "../document/document-error.js";

/** The text of a file's bytes, decoded strictly as UTF-8 by a fatal `decoder`; throws `DocumentError` ("not valid UTF-8") when they are not. */
export function decodeUtf8(decoder: TextDecoder, bytes: Uint8Array, source: string): string {
  try {
    return decoder.decode(bytes);
  } catch (cause) {
    throw new DocumentError({ source, reason: "not valid UTF-8", cause });
  }
}
