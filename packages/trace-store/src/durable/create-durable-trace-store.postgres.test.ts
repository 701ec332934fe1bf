import { postgresTarget } from "../../test/database-targets.js";
import { defineDurableTraceStoreSuite } from "../../test/durable-trace-store-suite.js";
import { onPostgres } from "../../test/on-postgres.js";

// The same suite as on PGlite, against a real PostgreSQL.
onPostgres({
  title: "the durable trace store on PostgreSQL",
  requirement: "R29",
  define: (url) => defineDurableTraceStoreSuite("PostgreSQL", () => postgresTarget(url)),
});
