import { describeValue, errorMessage } from "@lookup-knowledge/core";
import { createRequire } from "node:module";
import { z } from "zod";
import { DocumentError } from "./document-error.js";
import type { FrontmatterBlock } from "./read-frontmatter-block.js";
import { readJsonFrontmatter } from "./read-json-frontmatter.js";
import { readSimpleYaml } from "./read-simple-yaml.js";
import { loadTomlParser, readTomlFrontmatter } from "./read-toml-frontmatter.js";
import type { ResolvedIngestOptions } from "./resolve-ingest-options.js";

/** What ingestion takes from a document's frontmatter. */
export interface FrontmatterFields {
  title?: string;
  description?: string;
  category?: string;
  keywords: string[];
  entities: string[];
}

const mappingSchema = z.record(z.string(), z.unknown());
const textSchema = z.string().nullish();
const scalarSchema = z.union([z.string(), z.number(), z.boolean()]);
const termsSchema = z.union([scalarSchema, z.array(scalarSchema.nullable())]).nullish();

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
  const mapping = mappingSchema.safeParse(value);
  if (!mapping.success || Array.isArray(value)) {
    throw new DocumentError({
      source,
      reason: `frontmatter is not a mapping (got ${Array.isArray(value) ? "a list" : describeValue(value)})`,
    });
  }
  const fields = mapping.data;
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
  const result = textSchema.safeParse(fields[field]);
  if (!result.success) throw fieldError(source, field, fields[field], "a string");
  const text = result.data?.trim();
  return text === undefined || text === "" ? undefined : text;
}

function readCategory(fields: Record<string, unknown>, field: string, source: string): string | undefined {
  const value = fields[field];
  if (value == null) return undefined;
  const result = scalarSchema.safeParse(value);
  if (!result.success) throw fieldError(source, field, value, "a string");
  const text = String(result.data).trim();
  return text === "" ? undefined : text;
}

/** Terms from several fields, each a string (comma-separated), a number or a list; trimmed, without blanks or repeats. */
function readTerms(fields: Record<string, unknown>, names: readonly string[], source: string): string[] {
  const terms = new Set<string>();
  for (const name of names) {
    const result = termsSchema.safeParse(fields[name]);
    if (!result.success) throw fieldError(source, name, fields[name], "a string or a list of strings");
    const value = result.data;
    if (value == null) continue;
    const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(/[,，、]/) : [value];
    for (const item of items) {
      if (item == null) continue;
      const term = String(item).trim();
      if (term !== "") terms.add(term);
    }
  }
  return [...terms];
}

function fieldError(source: string, field: string, value: unknown, expected: string): DocumentError {
  return new DocumentError({ source, reason: `frontmatter field "${field}" must be ${expected} (got ${describeValue(value)})` });
}

function firstLine(message: string): string {
  return message.split("\n")[0]?.trim() ?? message;
}
