import { ConfigurationError, InvalidQueryError, emptyL0Hints, type KnowledgeEntry, type L0Hints } from "@lookup-knowledge/core";
import { arrayEntryTable, type EntryTable } from "./entry-table.js";
import { HintAssembler } from "./hint-assembler.js";
import { minimumTermEntries } from "./l0-index-options.js";
import type { L0Index, L0Scope } from "./l0-index.js";
import { rememberEntries } from "./l0-index-sources.js";
import type { ParsedEntry } from "./parse-knowledge-entries.js";
import type { ResolvedL0IndexOptions } from "./parse-l0-index-options.js";
import { buildTermIndex, type TermIndex, type TermIndexSettings } from "./term-index.js";

/** The term index settings of `count` entries under resolved options. */
export function termIndexSettings(count: number, settings: ResolvedL0IndexOptions): TermIndexSettings {
  return {
    minWordTermLength: settings.minTermLength,
    minCjkTermLength: Math.min(settings.minTermLength, 2),
    maxTermEntries: Math.max(minimumTermEntries, Math.floor(settings.maxTermShare * count)),
    isCommonTerm: settings.isCommonTerm,
  };
}

/** Builds the L0 index of parsed entries: their term index, then the index over it. */
export function buildL0Index(parsed: ParsedEntry[], settings: ResolvedL0IndexOptions): L0Index {
  return l0IndexOver(arrayEntryTable(parsed), () => parsed, settings, buildTermIndex(parsed, termIndexSettings(parsed.length, settings)));
}

/**
 * The L0 index over entries and their built term index. `withMetadata` gives every entry with
 * its metadata, which only `within` reads (a snapshot decodes them then, not at open).
 */
export function l0IndexOver(
  table: EntryTable,
  withMetadata: () => ParsedEntry[],
  settings: ResolvedL0IndexOptions,
  terms: TermIndex,
): L0Index {
  const assembler = new HintAssembler(table, terms, settings.maxEntries);
  const index: L0Index = Object.freeze({
    size: table.count,
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
        withMetadata().filter((entry) => scope.admits(entryCopy(entry)) === true),
        scoped,
      );
    },
  });
  return rememberEntries(index, table);
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
