import { postgresTarget } from "../../test/database-targets.js";
import { defineHashOnReadSuite } from "../../test/hash-on-read-suite.js";
import { onPostgres } from "../../test/on-postgres.js";

// The same suite as on PGlite, against a real PostgreSQL.
onPostgres({
  title: "hash on read on PostgreSQL",
  requirement: "R27",
  define: (url) => defineHashOnReadSuite("PostgreSQL", () => postgresTarget(url)),
});
