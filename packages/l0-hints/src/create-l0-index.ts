import { InvalidQueryError, emptyL0Hints, type KnowledgeEntry, type L0Hints } from "@lookup-knowledge/core";
import { HintAssembler } from "./hint-assembler.js";
import { minimumTermEntries, type L0IndexOptions } from "./l0-index-options.js";
import type { L0Index } from "./l0-index.js";
import { parseKnowledgeEntries } from "./parse-knowledge-entries.js";
import { parseL0IndexOptions } from "./parse-l0-index-options.js";
import { buildTermIndex } from "./term-index.js";

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
  const settings = parseL0IndexOptions(options);
  const parsed = parseKnowledgeEntries(entries);
  const terms = buildTermIndex(parsed, {
    minWordTermLength: settings.minTermLength,
    minCjkTermLength: Math.min(settings.minTermLength, 2),
    maxTermEntries: Math.max(minimumTermEntries, Math.floor(settings.maxTermShare * entries.length)),
    isCommonTerm: settings.isCommonTerm,
  });
  const assembler = new HintAssembler(parsed, terms, settings.maxEntries);
  return Object.freeze({
    size: parsed.length,
    match(query: string): L0Hints {
      if (typeof query !== "string") {
        throw new InvalidQueryError({ value: query, reason: "an L0 query must be a string" });
      }
      const { specific, generic } = terms.find(query);
      return specific.length === 0 ? emptyL0Hints() : assembler.assemble(specific, generic);
    },
  });
}
