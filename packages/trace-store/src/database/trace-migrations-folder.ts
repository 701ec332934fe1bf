import { fileURLToPath } from "node:url";

/** The migrations drizzle-kit generated from the table, shipped in the package (`migrations/`). */
export const traceMigrationsFolder = fileURLToPath(new URL("../../migrations", import.meta.url));
