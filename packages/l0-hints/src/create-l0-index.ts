import { ConfigurationError, InvalidQueryError, emptyL0Hints, type KnowledgeEntry, type L0Hints } from "@lookup-knowledge/core";
import { HintAssembler } from "./hint-assembler.js";
import { minimumTermEntries, type L0IndexOptions } from "./l0-index-options.js";
import type { L0Index, L0Scope } from "./l0-index.js";
import { parseKnowledgeEntries, type ParsedEntry } from "./parse-knowledge-entries.js";
import { parseL0IndexOptions, type ResolvedL0IndexOptions } from "./parse-l0-index-options.js";
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
  return buildL0Index(parseKnowledgeEntries(entries), parseL0IndexOptions(options));
}

function buildL0Index(parsed: ParsedEntry[], settings: ResolvedL0IndexOptions): L0Index {
  const terms = buildTermIndex(parsed, {
    minWordTermLength: settings.minTermLength,
    minCjkTermLength: Math.min(settings.minTermLength, 2),
    maxTermEntries: Math.max(minimumTermEntries, Math.floor(settings.maxTermShare * parsed.length)),
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
    within(scope: L0Scope): L0Index {
      if (scope === null || typeof scope !== "object" || typeof scope.admits !== "function") {
        throw new ConfigurationError({
          key: "scope",
          value: scope,
          reason: "must be an object with a filter and an admits(entry) function",
        });
      }
      const isCommonTerm = settings.isCommonTermIn?.(scope.filter);
      if (isCommonTerm !== undefined && typeof isCommonTerm !== "function") {
        throw new ConfigurationError({ key: "isCommonTermIn", value: isCommonTerm, reason: "must return a function" });
      }
      const scoped: ResolvedL0IndexOptions = { ...settings, ...(isCommonTerm === undefined ? {} : { isCommonTerm }) };
      return buildL0Index(
        parsed.filter((entry) => scope.admits(entryCopy(entry)) === true),
        scoped,
      );
    },
  });
}

/** A fresh entry in the input's shape, so `within`'s test cannot change the index. */
function entryCopy(entry: ParsedEntry): KnowledgeEntry {
  return {
    id: entry.id,
    source: entry.source,
    ...(entry.title === undefined ? {} : { title: entry.title }),
    keywords: [...entry.keywords],
    ...(entry.domain === undefined ? {} : { domain: entry.domain }),
    entities: [...entry.entities],
    ...(entry.metadata === undefined ? {} : { metadata: structuredClone(entry.metadata) }),
  };
}
