import { z } from "zod";

/** How a face of the tool bounds its arguments; the defaults are the LangChain tool's. */
export interface LookupKnowledgeInputOptions {
  /** The longest query taken, in characters; no bound by default. */
  maxQueryChars?: number;
  /** Whether callers may pass a `filter` of their own. Default false. */
  callerFilter?: boolean;
}

const filterSchema = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('A filter on chunk metadata, Pinecone style: {"category": {"$eq": "billing"}}; $and / $or combine.');

/** The schema's type: `filter` is in its shape only with `callerFilter`. */
export type LookupKnowledgeInputSchema = z.ZodObject<{ query: z.ZodString; filter?: typeof filterSchema }, z.core.$strict>;

/** The arguments of `lookup_knowledge` once parsed (a `filter` is checked by the retriever's filter rules). */
export type LookupKnowledgeInput = z.output<LookupKnowledgeInputSchema>;

/**
 * The input contract of `lookup_knowledge`, once for every face: the LangChain tool's schema,
 * and (through `z.toJSONSchema`, in the portable subset the MCP server lists) the MCP tool's
 * `inputSchema`. A strict object: an argument it does not name is refused. The query needs text
 * (not only spaces); the descriptions are what the model reads about each argument.
 */
export function createLookupKnowledgeInputSchema(options: LookupKnowledgeInputOptions = {}): LookupKnowledgeInputSchema {
  const text = z.string().min(1).regex(/\S/, "must contain text");
  const query = (options.maxQueryChars === undefined ? text : text.max(options.maxQueryChars)).describe(
    "What to look up: a question or keywords, in the user's language.",
  );
  return options.callerFilter ? z.strictObject({ query, filter: filterSchema }) : z.strictObject({ query });
}

/** The LangChain tool's input schema: a query with text in it, and nothing else. */
export const lookupKnowledgeInputSchema = createLookupKnowledgeInputSchema();

/**
 * How to call the tool again, for the end of an argument error: `Call it again with only these
 * arguments: {"query": "<a question or keywords>"}.` (`callee` is `it` or the tool's name). It
 * names every argument the tool takes, so a model that sent one more (`top_k`) leaves it out.
 */
export function lookupKnowledgeUsage(callee: string, options: Pick<LookupKnowledgeInputOptions, "callerFilter"> = {}): string {
  const args = options.callerFilter
    ? '{"query": "<a question or keywords>", "filter": {"<field>": {"$eq": "<value>"}}} (filter is optional)'
    : '{"query": "<a question or keywords>"}';
  return `Call ${callee} again with only these arguments: ${args}.`;
}
