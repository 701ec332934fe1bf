import { defineConfig } from "drizzle-kit";

// `pnpm --filter @lookup-knowledge/trace-store db:generate` writes a new migration into
// migrations/ after a change to the table; commit it. The code applies them at open.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/database/tool-invocation-table.ts",
  out: "./migrations",
});
