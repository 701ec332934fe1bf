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
  /** Source documents per page of `resources/list`; default 500. */
  resourcesPerPage: number;
  /** The tool's name, default `lookup_knowledge`. */
  toolName: string;
  /** What the model is told about the knowledge base; a sentence naming its subject helps. */
  description?: string;
  /** For Streamable HTTP (`serveMcpHttp`): Host and Origin values accepted besides the bound address's, and the body limit. */
  http?: { allowedHosts?: string[]; allowedOrigins?: string[]; maxBodyBytes?: number };
}

const settingsSchema = z.strictObject({
  filter: z.unknown().optional(),
  callerFilter: z.boolean().default(false),
  // The arguments of a call may take 64 KiB as JSON: a longer query could never arrive.
  maxQueryChars: z.number().int().min(16).max(60_000).default(8000),
  resourcesPerPage: z.number().int().min(1).max(10_000).default(500),
  toolName: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be 1-64 letters, digits, _ or -")
    .default("lookup_knowledge"),
  description: z.string().min(1).max(2000).optional(),
  http: z
    .strictObject({
      allowedHosts: z.array(z.string().regex(/^[^\s/]+:\d{1,5}$/, "must be host:port, like kb.internal:3333")).optional(),
      allowedOrigins: z.array(z.string().regex(/^https?:\/\/[^\s/]+\/?$/, "must be an origin, like https://app.example.com")).optional(),
      maxBodyBytes: z.number().int().min(1024).max(100_000_000).optional(),
    })
    .optional(),
});

/** The keys the `mcp` object takes, nested ones dotted (`http.allowedHosts`): what `mcp --help` must name. */
export const mcpServerSettingNames: readonly string[] = Object.keys(settingsSchema.shape).flatMap((key) =>
  key === "http" ? Object.keys(settingsSchema.shape.http.unwrap().shape).map((inner) => `http.${inner}`) : [key],
);

/** The default of each top-level setting that has one (`callerFilter`, `maxQueryChars`, `resourcesPerPage`, `toolName`). */
export const mcpServerSettingDefaults: Readonly<Record<string, unknown>> = settingsSchema.parse({});

/** Reads the server's settings (`mcp.*` keys in errors); a bad filter is refused with its path. */
export function readMcpServerSettings(input: unknown = {}): McpServerSettings {
  const parsed = parseOptions(settingsSchema, input ?? {}, "mcp");
  const { filter, description, http, ...rest } = parsed;
  return {
    ...rest,
    ...(http === undefined ? {} : { http: stripUndefined(http) }),
    ...(filter === undefined ? {} : { filter: validateMetadataFilter(filter) }),
    ...(description === undefined ? {} : { description }),
  };
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
