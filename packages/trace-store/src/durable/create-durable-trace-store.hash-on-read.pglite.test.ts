import { pgliteTarget } from "../../test/database-targets.js";
import { defineHashOnReadSuite } from "../../test/hash-on-read-suite.js";

defineHashOnReadSuite("PGlite", pgliteTarget);
