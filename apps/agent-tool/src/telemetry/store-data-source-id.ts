import { basename, resolve } from "node:path";
import type { StoreSettings } from "../store-settings.js";

/**
 * The default `gen_ai.data_source.id` of a store: the name a person knows it by, never a
 * secret or a whole URL. The local index: its data folder's name (`.lookup-knowledge`).
 * Pinecone: the index name (else the host's name), with `/<namespace>` when one is set.
 * libSQL: the database file's name, or a remote database's host name, with `/<table>` when the
 * table is not the default.
 */
export function storeDataSourceId(settings: StoreSettings, dataDirectory: string): string {
  switch (settings.kind) {
    case "local":
      return basename(resolve(dataDirectory)) || "lookup-knowledge";
    case "pinecone": {
      const index = settings.index ?? hostName(settings.host ?? "") ?? "pinecone";
      return settings.namespace === undefined ? index : `${index}/${settings.namespace}`;
    }
    case "libsql": {
      const database = libsqlDatabaseName(settings.url);
      return settings.table === undefined || settings.table === "vectors" ? database : `${database}/${settings.table}`;
    }
  }
}

function hostName(url: string): string | undefined {
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** `file:knowledge.db` -> `knowledge.db`; `libsql://db-org.turso.io?authToken=...` -> `db-org.turso.io`. */
function libsqlDatabaseName(url: string): string {
  const withoutQuery = url.replace(/[?#].*$/, "");
  if (/^file:/i.test(withoutQuery)) return basename(withoutQuery.replace(/^file:(\/\/)?/i, "")) || "libsql";
  return hostName(withoutQuery) ?? "libsql";
}
