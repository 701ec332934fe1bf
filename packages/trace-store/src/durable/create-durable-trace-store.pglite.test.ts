import { pgliteTarget } from "../../test/database-targets.js";
import { defineDurableTraceStoreSuite } from "../../test/durable-trace-store-suite.js";

defineDurableTraceStoreSuite("PGlite (embedded)", pgliteTarget);
