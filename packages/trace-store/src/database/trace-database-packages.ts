import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TraceStoreError } from "../errors/trace-store-error.js";

/**
 * The packages the trace database loads, with the versions this release is tested with. They
 * are optional peer dependencies of `@lookup-knowledge/trace-store`: a lookup only appends to
 * the spool file and needs none of them; reading or flushing traces into a database does.
 * (A test checks this list against the package's `peerDependencies`.)
 */
export const traceDatabasePackages = {
  postgres: { "drizzle-orm": "0.45.4", pg: "8.23.1" },
  pglite: { "@electric-sql/pglite": "0.5.14", "@electric-sql/pglite-socket": "0.2.17", "drizzle-orm": "0.45.4", pg: "8.23.1" },
} as const satisfies Record<"postgres" | "pglite", Record<string, string>>;

/**
 * Whether a folder `node_modules/<name>` with a `package.json` is in this module's folder or
 * one above it, where Node's resolution looks. Only the file system is read: a
 * `require.resolve` here fills Node's resolution cache with paths that then load a second
 * copy of `pg`, which Drizzle's driver does not see filled.
 */
function installedHere(name: string): boolean {
  for (let folder = dirname(fileURLToPath(import.meta.url)); ; folder = dirname(folder)) {
    if (existsSync(join(folder, "node_modules", name, "package.json"))) return true;
    if (dirname(folder) === folder) return false;
  }
}

/**
 * Throws `trace_database_package_missing` naming every package the database at `location`
 * needs that is not installed, and the command that installs them. `installed` says whether
 * a package is there (tests pass another).
 */
export function requireTraceDatabasePackages(
  driver: keyof typeof traceDatabasePackages,
  location: string,
  installed: (name: string) => boolean = installedHere,
): void {
  const missing = Object.keys(traceDatabasePackages[driver]).filter((name) => !installed(name));
  if (missing.length > 0) throw missingPackagesError(driver, location, missing);
}

/**
 * The error of a driver whose load failed for want of a package (Node's `ERR_MODULE_NOT_FOUND`
 * naming one of `traceDatabasePackages`, as when `NODE_PATH` let the check above find it);
 * `undefined` for any other error.
 */
export function asMissingPackageError(
  error: unknown,
  driver: keyof typeof traceDatabasePackages,
  location: string,
): TraceStoreError | undefined {
  if ((error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") return undefined;
  const named = /Cannot find package '([^']+)'/.exec(String((error as Error).message))?.[1];
  if (named === undefined || !(named in traceDatabasePackages[driver])) return undefined;
  return missingPackagesError(driver, location, [named], error);
}

function missingPackagesError(
  driver: keyof typeof traceDatabasePackages,
  location: string,
  names: string[],
  cause?: unknown,
): TraceStoreError {
  const versions: Record<string, string> = traceDatabasePackages[driver];
  const install = `npm install ${names.map((name) => `${name}@${versions[name]}`).join(" ")}`;
  const what = driver === "pglite" ? `The embedded trace database (PGlite, in ${location})` : `The PostgreSQL trace database (${location})`;
  return new TraceStoreError({
    code: "trace_database_package_missing",
    message: `${what} needs ${names.length === 1 ? "the package" : "the packages"} ${names.join(", ")}, not installed: run \`${install}\` (or your package manager's equivalent). Lookups still record into the spool; the records wait there until the database can be opened.`,
    location,
    cause,
    retryable: false,
  });
}
