import type { z } from "zod";
import { PineconePortError } from "./pinecone-port-error.js";

/** A Pinecone answer checked against `schema`; an unexpected shape is a `pinecone_malformed_response`. */
export function parsePineconeResponse<T>(schema: z.ZodType<T>, value: unknown, operation: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new PineconePortError({
    code: "pinecone_malformed_response",
    operation,
    message: `Pinecone ${operation} answered in an unexpected shape${issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : ""}: ${issue?.message ?? "unreadable"}`,
  });
}

/** The `namespace` field of a request: absent for the namespace the `Index` was opened with. */
export function namespaceOption(namespace: string | undefined): { namespace?: string } {
  return namespace === undefined ? {} : { namespace };
}
