import { pgliteTarget } from "../../test/database-targets.js";
import { defineHostileRecordSuite } from "../../test/hostile-record-suite.js";

defineHostileRecordSuite("PGlite (embedded)", pgliteTarget);
