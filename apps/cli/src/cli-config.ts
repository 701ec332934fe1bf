import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { ConfigurationError, resolveRagConfig, type FlatRagConfig, type RagConfig } from "@lookup-knowledge/core";
import type { IngestOptions } from "@lookup-knowledge/ingest";
import { resolveQueryStorage, type QueryStorage } from "@lookup-knowledge/trace-store/recording";
import type { settingsFileSchema } from "./settings-file-schema.js";
import { parseStoreSettings, type StoreSettings } from "@lookup-knowledge/agent-tool/store-settings";
import { CliError } from "./cli-error.js";

/** The file the CLI reads its settings from, in the working folder unless `--config` says otherwise. */
export const defaultConfigFile = "lookup-knowledge.config.json";
/** Where the CLI keeps its index and manifests unless told otherwise. */
export const defaultDataDirectory = ".lookup-knowledge";

export interface CliConfig {
  dataDirectory: string;
  rag: RagConfig;
  /** The flat `rag.*` keys as given, to hand to the retriever. */
  ragKeys: FlatRagConfig;
  ingest: IngestOptions;
  /** How tool invocations are traced: `traces.store-query` and `traces.query-hash-key`. */
  traces: { queryStorage: QueryStorage; queryHashKey?: string };
  /** The store of the chunks: the config file's `store`, with the command-line flags over it. */
  store: StoreSettings;
  /** The `mcp` object as given (the MCP server's settings, checked by `lookup-knowledge mcp`). */
  mcp?: unknown;
  /** The file the settings came from, when there was one. */
  file?: string;
}

const storeQueryKey = "traces.store-query";
const queryHashKeyKey = "traces.query-hash-key";

/**
 * Reads `lookup-knowledge.config.json`: `data` (the data folder), `ingest` (ingest options), `mcp` (the MCP server's settings),
 * `traces.store-query` (`text` or `hash`), `traces.query-hash-key` and flat `rag.*` keys. A missing default file is fine; a missing file that was asked for,
 * bad JSON, an unknown key or a bad value is refused with an error naming the file and key.
 */
/** The store flags of the command line: `--store`, `--index`, `--namespace`, `--host`, `--store-url`. */
export interface StoreFlags {
  kind?: string;
  index?: string;
  namespace?: string;
  host?: string;
  url?: string;
}

export async function loadCliConfig(input: {
  configFile?: string;
  dataDirectory?: string;
  cwd?: string;
  store?: StoreFlags;
}): Promise<CliConfig> {
  const cwd = input.cwd ?? process.cwd();
  const file = resolve(cwd, input.configFile ?? defaultConfigFile);
  let text: string | undefined;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || input.configFile !== undefined) {
      throw new CliError({ code: "invalid_configuration", message: `Cannot read the settings file ${file}: ${readFailure(error)}.` });
    }
  }
  let raw: unknown = {};
  if (text !== undefined) {
    try {
      raw = JSON.parse(text) as unknown;
    } catch (error) {
      throw new CliError({
        code: "invalid_configuration",
        message: `The settings file ${file} is not valid JSON: ${(error as Error).message}.`,
      });
    }
  }
  // Without a settings file there is nothing to check: the schema (and zod) is loaded only for one.
  const parsed: ReturnType<typeof settingsFileSchema.safeParse> =
    text === undefined ? { success: true, data: {} } : (await import("./settings-file-schema.js")).settingsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path ?? [];
    if (path.length === 0) {
      throw new CliError({
        code: "invalid_configuration",
        message: `The settings file ${file} must hold a JSON object: ${issue?.message ?? "invalid"}.`,
      });
    }
    // The value found at the issue's path (never the file name), and the file named once.
    const value = path.reduce<unknown>(
      (object, step) =>
        typeof object === "object" && object !== null ? (object as Record<PropertyKey, unknown>)[step as PropertyKey] : undefined,
      raw,
    );
    throw new ConfigurationError({ key: path.join("."), value, reason: `${issue?.message ?? "invalid"} (in ${file})` });
  }
  const { data, ingest, mcp, store: fileStore, ...rest } = parsed.data;
  const store = resolveStore(fileStore, input.store, text !== undefined ? file : undefined);
  const traces: CliConfig["traces"] = {
    queryStorage: withFile(file, text !== undefined, () => resolveQueryStorage(rest[storeQueryKey], storeQueryKey)),
  };
  const hashKey = rest[queryHashKeyKey];
  if (hashKey !== undefined) {
    if (typeof hashKey !== "string" || hashKey.length < 16) {
      throw new ConfigurationError({
        key: queryHashKeyKey,
        value: "(hidden)",
        reason: `must be a string of at least 16 characters (in ${file})`,
      });
    }
    traces.queryHashKey = hashKey;
  }
  delete rest[storeQueryKey];
  delete rest[queryHashKeyKey];
  const ragKeys: FlatRagConfig = {};
  for (const [key, value] of Object.entries(rest)) {
    if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
      throw new ConfigurationError({ key, value, reason: `expected a string, number or boolean (in ${file})` });
    }
    ragKeys[key] = value;
  }
  const rag = withFile(file, text !== undefined, () => resolveRagConfig(ragKeys));
  const dataDirectory = resolve(cwd, input.dataDirectory ?? data ?? defaultDataDirectory);
  return {
    dataDirectory,
    rag,
    ragKeys,
    ingest: stripUndefined(ingest ?? {}),
    traces,
    store,
    ...(mcp === undefined ? {} : { mcp }),
    ...(text !== undefined ? { file } : {}),
  };
}

/** The file's `store` with the flags laid over it; a `--store` of another kind starts afresh. */
function resolveStore(fileStore: unknown, flags: StoreFlags | undefined, file: string | undefined): StoreSettings {
  const given = Object.entries(flags ?? {}).filter(([, value]) => value !== undefined);
  if (given.length === 0) return parseStoreSettings(fileStore, file ?? "the settings");
  const fileObject = typeof fileStore === "object" && fileStore !== null ? (fileStore as Record<string, unknown>) : undefined;
  const kind = flags?.kind ?? (fileObject?.["kind"] as string | undefined) ?? "local";
  const base: Record<string, unknown> = fileObject !== undefined && fileObject["kind"] === kind ? { ...fileObject } : { kind };
  const { index, namespace, host, url } = flags ?? {};
  Object.assign(base, stripUndefined({ index, namespace, host, url }));
  return parseStoreSettings(base, file === undefined ? "the command-line store options" : `${file} and the command-line store options`);
}

/** A settings error that names its key and value gets the file it came from, once. */
function withFile<T>(file: string, fromFile: boolean, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (fromFile && ConfigurationError.isInstance(error) && !error.message.includes(file)) {
      throw new CliError({ code: "invalid_configuration", message: `${error.message} (in ${file})`, cause: error });
    }
    throw error;
  }
}

function readFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "there is no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a folder, not a file";
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** The object without its undefined fields, typed as such (what `exactOptionalPropertyTypes` asks of optional options). */
function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
