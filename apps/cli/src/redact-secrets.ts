// Query parameters of database URLs whose values are secrets or name secret files.
const secretParameters =
  /\b(password|passwd|pass|sslpassword|sslkey|sslcert|sslrootcert|sslcrl|authToken|auth_token|token|api[_-]?key|secret)=([^&\s'")]+)/giu;
// The password of a URL's user information: scheme://user:password@host.
const userPassword = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@]+@/giu;

/**
 * `text` (an error message the CLI prints) with secrets taken out: URL passwords, secret
 * query parameters (`sslkey`, `sslpassword`, `password`, tokens), and, wherever else they
 * appear (a driver quoting the key file it could not open), the secret values of the URLs
 * in `DATABASE_URL` and `LIBSQL_URL`, and the keys in `PINECONE_API_KEY` and `LIBSQL_AUTH_TOKEN`.
 */
export function redactSecrets(text: string, environment: NodeJS.ProcessEnv = process.env): string {
  const secrets = new Set<string>();
  for (const name of ["DATABASE_URL", "LIBSQL_URL"]) {
    const value = environment[name]?.trim();
    if (!value) continue;
    for (const match of value.matchAll(secretParameters)) addSecret(secrets, match[2]);
    addSecret(secrets, value.match(/^[a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:([^\s@]+)@/iu)?.[1]);
  }
  for (const name of ["PINECONE_API_KEY", "LIBSQL_AUTH_TOKEN"]) addSecret(secrets, environment[name]?.trim());
  let redacted = text.replace(userPassword, "$1***@").replace(secretParameters, "$1=***");
  // Longest first, so a secret inside another is not left half shown.
  for (const secret of [...secrets].sort((left, right) => right.length - left.length)) redacted = redacted.split(secret).join("***");
  return redacted;
}

function addSecret(secrets: Set<string>, value: string | undefined): void {
  if (value === undefined || value.length < 4 || value === "***") return;
  secrets.add(value);
  try {
    const decoded = decodeURIComponent(value);
    if (decoded.length >= 4) secrets.add(decoded);
  } catch {
    // Not percent-encoded: the value as given is enough.
  }
}
