import { describeValue, errorMessage } from "@lookup-knowledge/core";
import { createRequire } from "node:module";
import { DocumentError } from "../document/document-error.js";
import type { FrontmatterBlock } from "./read-frontmatter-block.js";
import { readJsonFrontmatter } from "./read-json-frontmatter.js";
import { readSimpleYaml } from "./read-simple-yaml.js";
import { loadTomlParser, readTomlFrontmatter } from "./read-toml-frontmatter.js";
import type { ResolvedIngestOptions } from "../options/resolve-ingest-options.js";

/** What ingestion takes from a document's frontmatter. */
export interface FrontmatterFields {
  title?: string;
  description?: string;
  category?: string;
  keywords: string[];
  entities: string[];
}

// The fields are checked by hand, not by a schema library: a cold ingest checks every
// document's frontmatter once, and a schema's generic code spent more time warming up than
// the checks take (issue 36 item 6). `read-frontmatter.test.ts` holds them to the schemas
// they replaced (zod's record, string, finite number and boolean).

/**
 * Reads frontmatter and validates the fields ingestion uses: YAML (the simple kind by
 * `readSimpleYaml`, the rest through the `yaml` parser), TOML (`smol-toml`) or JSON, the
 * same fields whatever the language. Throws `DocumentError` naming `source` when the text
 * does not parse, when it is not a mapping, or when a field has the wrong type (a title that
 * is not a string, keywords that are not a string or a list of strings...). Empty
 * frontmatter reads as no fields.
 */
export function readFrontmatter(
  block: Pick<FrontmatterBlock, "format" | "value">,
  source: string,
  options: ResolvedIngestOptions,
): FrontmatterFields {
  const value = parseFrontmatter(block, source);
  if (value == null) return { keywords: [], entities: [] };
  if (!isPlainObject(value)) {
    throw new DocumentError({
      source,
      reason: `frontmatter is not a mapping (got ${Array.isArray(value) ? "a list" : describeValue(value)})`,
    });
  }
  const fields = ownFields(value);
  const title = readText(fields, "title", source);
  let description: string | undefined;
  for (const field of options.descriptionFields) {
    description = readText(fields, field, source);
    if (description !== undefined) break;
  }
  const category = readCategory(fields, options.categoryField, source);
  return {
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(category === undefined ? {} : { category }),
    keywords: readTerms(fields, options.keywordFields, source),
    entities: readTerms(fields, options.entityFields, source),
  };
}

function parseFrontmatter({ format, value }: Pick<FrontmatterBlock, "format" | "value">, source: string): unknown {
  if (format === "toml") return readTomlFrontmatter(value, source);
  if (format === "json") return readJsonFrontmatter(value, source);
  return readSimpleYaml(value) ?? readYaml(value, source);
}

/** The `yaml` package, loaded on first use: most frontmatter never needs it (`readSimpleYaml`). */
let yaml: typeof import("yaml") | undefined;

/**
 * Loads the YAML and TOML parsers now. A parse that runs under a deadline must not be the
 * first to load them: a module load that V8 stops halfway stays broken in the module cache.
 */
export function loadFrontmatterParsers(): void {
  yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml");
  loadTomlParser();
}

/** Parses YAML in full (YAML 1.2, aliases bounded). */
function readYaml(yamlText: string, source: string): unknown {
  yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml");
  const document = yaml.parseDocument(yamlText, { prettyErrors: false });
  const error = document.errors[0];
  if (error !== undefined) {
    throw new DocumentError({ source, reason: `frontmatter is not valid YAML: ${firstLine(error.message)}`, cause: error });
  }
  try {
    return document.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    throw new DocumentError({ source, reason: `frontmatter is not valid YAML: ${firstLine(errorMessage(cause))}`, cause });
  }
}

function readText(fields: Record<string, unknown>, field: string, source: string): string | undefined {
  const value = fields[field];
  if (value != null && typeof value !== "string") throw fieldError(source, field, value, "a string");
  const text = value?.trim();
  return text === undefined || text === "" ? undefined : text;
}

function readCategory(fields: Record<string, unknown>, field: string, source: string): string | undefined {
  const value = fields[field];
  if (value == null) return undefined;
  if (!isScalar(value)) throw fieldError(source, field, value, "a string");
  const text = String(value).trim();
  return text === "" ? undefined : text;
}

/** Terms from several fields, each a string (comma-separated), a number or a list; trimmed, without blanks or repeats. */
function readTerms(fields: Record<string, unknown>, names: readonly string[], source: string): string[] {
  const terms = new Set<string>();
  for (const name of names) {
    const value = fields[name];
    if (value == null) continue;
    if (!isScalar(value) && !(Array.isArray(value) && value.every((item) => item === null || isScalar(item)))) {
      throw fieldError(source, name, value, "a string or a list of strings");
    }
    const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,，、]/) : [value];
    for (const item of items) {
      if (item == null) continue;
      const term = String(item).trim();
      if (term !== "") terms.add(term);
    }
  }
  return [...terms];
}

/** A string, a finite number or a boolean: what a field of one value may be. */
function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

/**
 * Whether a parsed value is a mapping: an object whose constructor, if it is a function, has
 * a prototype of its own with `isPrototypeOf` (a plain object, or one without a prototype;
 * not a list, a date or a map).
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const maker = (value as { constructor?: unknown }).constructor;
  if (typeof maker !== "function") return true;
  const prototype: unknown = maker.prototype;
  if (typeof prototype !== "object" || prototype === null || Array.isArray(prototype)) return false;
  return Object.hasOwn(prototype, "isPrototypeOf");
}

/**
 * The mapping's own fields in a new plain object, without a `__proto__` key (which would set
 * the copy's prototype): a field is looked up in it, and a name such as `constructor` that
 * the frontmatter does not set finds what every plain object has.
 */
function ownFields(mapping: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(mapping)) if (key !== "__proto__") fields[key] = mapping[key];
  return fields;
}

function fieldError(source: string, field: string, value: unknown, expected: string): DocumentError {
  return new DocumentError({ source, reason: `frontmatter field "${field}" must be ${expected} (got ${describeValue(value)})` });
}

function firstLine(message: string): string {
  return message.split("\n")[0]?.trim() ?? message;
}
