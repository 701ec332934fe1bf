import { pgliteTarget } from "../../test/database-targets.js";
import { defineKnowledgeGapsSuite } from "../../test/knowledge-gaps-suite.js";

defineKnowledgeGapsSuite("PGlite", pgliteTarget);
