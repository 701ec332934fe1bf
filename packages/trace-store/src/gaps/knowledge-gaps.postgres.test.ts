import { postgresTarget } from "../../test/database-targets.js";
import { defineKnowledgeGapsSuite } from "../../test/knowledge-gaps-suite.js";
import { onPostgres } from "../../test/on-postgres.js";

// The same cases as on PGlite, against a real PostgreSQL: the same records give the same
// groups (issue 37 item 5).
onPostgres({
  title: "knowledge gaps on PostgreSQL",
  requirement: "issue 37 item 5",
  define: (url) => defineKnowledgeGapsSuite("PostgreSQL", () => postgresTarget(url)),
});
