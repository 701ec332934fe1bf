import { parseOptions, type MetadataFilter } from "@lookup-knowledge/core";
import { validateMetadataFilter } from "@lookup-knowledge/search-port";
import { z } from "zod";

/** How the MCP server exposes the knowledge base: the `mcp` object of `lookup-knowledge.config.json`. */
export interface McpServerSettings {
  /** A filter imposed on every lookup (a tenant, an access scope); never dropped (R12). */
  filter?: MetadataFilter;
  /** Whether callers may pass a `filter` of their own (it is combined with `filter`). Default false. */
  callerFilter: boolean;
  /** The longest query accepted, in characters; a longer one is refused as a tool error. Default 8000. */
  maxQueryChars: number;
  /** The tool's name, default `lookup_knowledge`. */
  toolName: string;
  /** What the model is told about the knowledge base; a sentence naming its subject helps. */
  description?: string;
}

const settingsSchema = z.strictObject({
  filter: z.unknown().optional(),
  callerFilter: z.boolean().default(false),
  maxQueryChars: z.number().int().min(16).max(1_000_000).default(8000),
  toolName: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -")
    .default("lookup_knowledge"),
  description: z.string().min(1).max(2000).optional(),
});

/** Reads the server's settings (`mcp.*` keys in errors); a bad filter is refused with its path. */
export function readMcpServerSettings(input: unknown = {}): McpServerSettings {
  const parsed = parseOptions(settingsSchema, input ?? {}, "mcp");
  const { filter, description, ...rest } = parsed;
  return {
    ...rest,
    ...(filter === undefined ? {} : { filter: validateMetadataFilter(filter) }),
    ...(description === undefined ? {} : { description }),
  };
}
