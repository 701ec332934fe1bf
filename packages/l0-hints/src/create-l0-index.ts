import type { KnowledgeEntry } from "@lookup-knowledge/core";
import type { L0IndexOptions } from "./l0-index-options.js";
import type { L0Index } from "./l0-index.js";
import { buildL0Index } from "./l0-index-over.js";
import { parseKnowledgeEntries } from "./parse-knowledge-entries.js";
import { parseL0IndexOptions } from "./parse-l0-index-options.js";

/**
 * Builds an L0 index over knowledge entries (R4). Entries are checked first: each needs a
 * non-empty string `id` and `source`, ids must be unique, and the optional fields must have
 * their declared types; otherwise a `LookupKnowledgeError` with code
 * `invalid_knowledge_entry` names the entry and the field. The index keeps its own copy, so
 * later changes to `entries` do not reach it. Pure: no I/O.
 *
 * A query matches an entry when the entry's title, a keyword, its domain or an entity term
 * occurs in it: on word boundaries for English and other spaced scripts, as a substring for
 * Chinese, Japanese and Korean.
 */
export function createL0Index(entries: KnowledgeEntry[], options?: L0IndexOptions): L0Index {
  return buildL0Index(parseKnowledgeEntries(entries), parseL0IndexOptions(options));
}
