import { ConfigurationError } from "@lookup-knowledge/core";

/**
 * Checks a PostgreSQL URL (`postgres://` or `postgresql://`, with a host) and returns it with
 * the text to show for it: the same URL with the password replaced by `***`. Anything else
 * throws `ConfigurationError` naming `key` (default `DATABASE_URL`).
 */
export function parseDatabaseUrl(value: string, key = "DATABASE_URL"): { url: string; redacted: string } {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigurationError({
      key,
      value: redactLoosely(value),
      reason: "not a URL; expected postgres://user:password@host:5432/database",
    });
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") {
    throw new ConfigurationError({
      key,
      value: redactLoosely(value),
      reason: `the scheme ${parsed.protocol} is not supported; expected postgres:// or postgresql:// (leave it unset for the embedded database)`,
    });
  }
  if (parsed.hostname === "" && !parsed.searchParams.has("host")) {
    throw new ConfigurationError({ key, value: redactLoosely(value), reason: "names no host; expected postgres://user:password@host:5432/database" });
  }
  const shown = new URL(value);
  if (shown.password !== "") shown.password = "***";
  return { url: value, redacted: shown.toString() };
}

function redactLoosely(value: string): string {
  return value.replace(/(\/\/[^:/@]*:)[^@]*@/, "$1***@");
}
