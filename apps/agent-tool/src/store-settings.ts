// `@lookup-knowledge/agent-tool/store-settings`: which store holds the chunks, as settings
// (parsed, described), without loading any store: what a command line needs before it runs.
import { ConfigurationError } from "@lookup-knowledge/core";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import type { z as Zod } from "zod";

/**
 * Which store holds the chunks (R13): the embedded local index (the default), a Pinecone
 * index, or a libSQL database through LangChain's `LibSQLVectorStore`. Secrets are never
 * settings: the Pinecone key is read from `PINECONE_API_KEY`, a remote libSQL token from
 * `LIBSQL_AUTH_TOKEN`, and neither is logged.
 */
export type StoreSettings =
  | { kind: "local" }
  | {
      kind: "pinecone";
      /** The index name; described once for its metric and field map. */
      index?: string;
      /** The index host; with `metric`, no control-plane call is made. */
      host?: string;
      namespace?: string;
      metric?: "cosine" | "dotproduct" | "euclidean";
      /** `dense` (default; the offline embedder), `hybrid` (dotproduct indexes) or `integrated` (the index embeds). */
      mode?: "dense" | "hybrid" | "integrated";
      /** Another control plane than api.pinecone.io (a local test server). */
      controllerHostUrl?: string;
    }
  | { kind: "libsql"; url: string; table?: string };

/** The kinds of store a data folder can be read and written through. */
export const storeKinds = ["local", "pinecone", "libsql"] as const;

const secretKeys = ["apiKey", "api_key", "apikey", "authToken", "auth_token", "token", "password", "secret"];
// Built, and zod loaded, on first use (issue 36 item 5: a lookup of the local store, which
// `parseStoreSettings` reads by hand, loads no zod).
const storeSchema = schemaOnDemand(buildStoreSchema);

function buildStoreSchema(z: typeof Zod) {
  const url = z.string().regex(/^https?:\/\/\S+$/, "expected an http(s) URL");
  return z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("local") }),
    z.strictObject({
      kind: z.literal("pinecone"),
      index: z.string().min(1).optional(),
      host: url.optional(),
      namespace: z.string().min(1).optional(),
      metric: z.enum(["cosine", "dotproduct", "euclidean"]).optional(),
      mode: z.enum(["dense", "hybrid", "integrated"]).optional(),
      controllerHostUrl: url.optional(),
    }),
    z.strictObject({
      kind: z.literal("libsql"),
      url: z.string({ error: "a libSQL store needs its database URL (--store-url, e.g. file:knowledge.db)" }).min(1),
      table: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
        .optional(),
    }),
  ]);
}

/**
 * Checks store settings (the config file's `store`, with command-line flags laid over it).
 * A secret among them is refused: it belongs in the environment. `where` names the source in
 * the error (`lookup-knowledge.config.json`).
 */
export function parseStoreSettings(raw: unknown, where: string): StoreSettings {
  if (raw === undefined) return { kind: "local" };
  if (typeof raw === "object" && raw !== null) {
    for (const key of Object.keys(raw)) {
      if (secretKeys.includes(key)) {
        throw new ConfigurationError({
          key: `store.${key}`,
          value: "(hidden)",
          reason: `secrets are read from the environment only (PINECONE_API_KEY, LIBSQL_AUTH_TOKEN), never from settings (in ${where})`,
        });
      }
    }
  }
  if (isLocalStore(raw)) return { kind: "local" };
  const parsed = storeSchema().safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const kind = (raw as { kind?: unknown } | null)?.kind;
    if (issue?.code === "unrecognized_keys") {
      const key = issue.keys[0] ?? "";
      throw new ConfigurationError({
        key: `store.${key}`,
        value: (raw as Record<string, unknown>)[key],
        reason: `not a setting of a ${JSON.stringify(kind)} store (in ${where})`,
      });
    }
    const path = issue?.path.join(".");
    const reason =
      path === "kind" || path === ""
        ? `expected kind ${storeKinds.map((name) => `"${name}"`).join(", ")}, got ${JSON.stringify(kind)}`
        : (issue?.message ?? "invalid");
    throw new ConfigurationError({
      key: path ? `store.${path}` : "store",
      value: path ? (raw as Record<string, unknown>)[path.split(".")[0] ?? ""] : raw,
      reason: `${reason} (in ${where})`,
    });
  }
  const settings = parsed.data as StoreSettings;
  if (
    settings.kind === "libsql" &&
    (/\/\/[^@/?#]*@/.test(settings.url) || /[?&][^=&#]*(token|password|secret|key)[^=&#]*=/i.test(settings.url))
  ) {
    throw new ConfigurationError({
      key: "store.url",
      value: "(hidden: it holds a credential)",
      reason: `put the libSQL token in the environment variable LIBSQL_AUTH_TOKEN, not in the URL: secrets are read from the environment only (in ${where})`,
    });
  }
  if (settings.kind === "pinecone" && settings.index === undefined && settings.host === undefined) {
    throw new ConfigurationError({
      key: "store.index",
      value: undefined,
      reason: `a Pinecone store needs the index name (--index) or its host (--host) (in ${where})`,
    });
  }
  return settings;
}

/** Whether `raw` is exactly `{ kind: "local" }`, the settings of the default store. */
function isLocalStore(raw: unknown): boolean {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return false;
  const keys = Object.keys(raw);
  return keys.length === 1 && keys[0] === "kind" && (raw as { kind?: unknown }).kind === "local";
}

/** A short readable description of a store, without secrets: `pinecone index handbook, namespace support`. */
export function describeStore(settings: StoreSettings): string {
  switch (settings.kind) {
    case "local":
      return "local index";
    case "pinecone":
      return `pinecone ${settings.index !== undefined ? `index ${settings.index}` : `host ${settings.host}`}, namespace ${settings.namespace ?? "(default)"}`;
    case "libsql":
      return `libsql ${redactUrl(settings.url)}, table ${settings.table ?? "vectors"}`;
  }
}

/** A URL with any user information and query values hidden. */
function redactUrl(value: string): string {
  return value.replace(/\/\/[^@/?#]*@/, "//***@").replace(/([?&][^=&#]+)=[^&#]*/g, "$1=***");
}
