import { ConfigurationError } from "@lookup-knowledge/core";

/** Query parameters whose values are hidden when a URL is shown (`password`, `sslpassword`, `sslkey`, `token`, ...). */
const secretParameter = /password|secret|token|key/i;

/**
 * Checks a PostgreSQL URL (`postgres://` or `postgresql://`, with a host) and returns it with
 * the text to show for it: the same URL with `***` for the password and for the value of
 * every query parameter whose name contains `password`, `secret`, `token` or `key`
 * (`?password=`, `sslpassword=`, `sslkey=`). Anything else throws `ConfigurationError` naming
 * `key` (default `DATABASE_URL`), with the same parts hidden.
 */
export function parseDatabaseUrl(value: string, key = "DATABASE_URL"): { url: string; redacted: string } {
  // Checked by hand, not by parseOptions: the refused value may hold a password.
  if (typeof value !== "string") {
    throw new ConfigurationError({
      key,
      value: `(${typeof value})`,
      reason: "must be a string: postgres://user:password@host:5432/database",
    });
  }
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
    throw new ConfigurationError({
      key,
      value: redactLoosely(value),
      reason: "names no host; expected postgres://user:password@host:5432/database",
    });
  }
  const shown = new URL(value);
  if (shown.password !== "") shown.password = "***";
  shown.search = "";
  shown.hash = ""; // never sent to the server; not shown
  return { url: value, redacted: `${shown.toString()}${redactQuery(parsed.search)}` };
}

/** `?a=1&password=***`: the query string with the values of secret parameters hidden, as written otherwise. */
function redactQuery(search: string): string {
  if (search === "" || search === "?") return "";
  const parts = search
    .slice(1)
    .split("&")
    .map((part) => {
      const equals = part.indexOf("=");
      const name = equals === -1 ? part : part.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, " "));
      } catch {
        // A malformed escape: judged as written.
      }
      return equals !== -1 && secretParameter.test(decoded) ? `${name}=***` : part;
    });
  return `?${parts.join("&")}`;
}

/** For a value that is not a URL: hides what looks like a password and every secret-looking query value. */
function redactLoosely(value: string): string {
  const hash = value.indexOf("#");
  const body = hash === -1 ? value : value.slice(0, hash);
  const question = body.indexOf("?");
  const head = question === -1 ? body : body.slice(0, question);
  const query = question === -1 ? "" : redactQuery(body.slice(question));
  return `${head.replace(/(\/\/[^:/@]*:)[^@]*@/, "$1***@")}${query}`;
}
