// `@lookup-knowledge/trace-store/schema`: the Drizzle table and the migrations folder, for
// reading or joining the records with your own Drizzle code. A separate entry, so that the
// main one does not load Drizzle.
export { toolInvocationTable } from "./database/tool-invocation-table.js";
export { traceMigrationsFolder } from "./database/trace-migrations-folder.js";
