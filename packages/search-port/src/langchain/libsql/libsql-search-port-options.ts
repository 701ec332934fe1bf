import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { z } from "zod";
import { embeddingsSchema } from "../../internal/embeddings-schema.js";

/**
 * The options of `openLibsqlSearchPort`. They are checked by `libsqlSearchPortOptionsSchema`,
 * whose input type is this one: the type test in `libsql-search-port-options.test.ts` fails
 * when the two differ. The interface is written out because a type inferred from a schema
 * loses its documentation in the published `.d.ts`.
 */
export interface LibsqlSearchPortOptions {
  /** `file:knowledge.db` (a local file), `:memory:`, or a `libsql://` URL of a remote database. */
  url: string;
  /** For a remote database; read it from the environment in your code. */
  authToken?: string | undefined;
  /** Embeds records and queries: any LangChain `Embeddings`. */
  embeddings: EmbeddingsInterface;
  /** The table of chunks (default `"vectors"`); created when missing. A plain identifier. */
  table?: string | undefined;
}

const identifier = /^[A-Za-z_][A-Za-z0-9_]*$/;
const urlError = "expected a libSQL URL such as file:knowledge.db";
const tableError = "expected a plain SQL identifier (letters, digits, _)";

/**
 * Each option of `openLibsqlSearchPort` checked, with its default. `authToken` is checked by
 * hand before this schema sees it, so that a refused token is never shown.
 */
export const libsqlSearchPortOptionsSchema = z.object({
  url: z.string({ error: urlError }).refine((url) => url.trim() !== "", { error: urlError }),
  authToken: z.string().optional(),
  table: z.string({ error: tableError }).regex(identifier, { error: tableError }).default("vectors"),
  embeddings: embeddingsSchema,
});
