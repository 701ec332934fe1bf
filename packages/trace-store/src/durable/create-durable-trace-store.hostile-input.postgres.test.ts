import { postgresTarget } from "../../test/database-targets.js";
import { defineHostileRecordSuite } from "../../test/hostile-record-suite.js";
import { onPostgres } from "../../test/on-postgres.js";

// The same suite as on PGlite, against a real PostgreSQL.
onPostgres({
  title: "hostile trace records on PostgreSQL",
  requirement: "R29",
  define: (url) => defineHostileRecordSuite("PostgreSQL", () => postgresTarget(url)),
});
