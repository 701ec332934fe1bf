import { describe, expect, it } from "vitest";
import { z } from "zod";
import { DocumentError } from "../document/document-error.js";
import { readFrontmatter } from "./read-frontmatter.js";
import { resolveIngestOptions } from "../options/resolve-ingest-options.js";

// The schemas `readFrontmatter` checked fields with before it checked them by hand (issue 36
// item 6: a cold ingest spent more time warming the schema library up than on the checks).
// Every value below must be accepted or refused as they had it, with the same result.
const mappingSchema = z.record(z.string(), z.unknown());
const textSchema = z.string().nullish();
const scalarSchema = z.union([z.string(), z.number(), z.boolean()]);
const termsSchema = z.union([scalarSchema, z.array(scalarSchema.nullable())]).nullish();

const options = resolveIngestOptions({ categoryField: "category", keywordFields: ["keywords"], entityFields: [] });

/** What a JSON frontmatter of `value` gives: the fields, or the reason it is refused. */
function outcome(value: unknown): unknown {
  try {
    return readFrontmatter({ format: "json", value: JSON.stringify(value) }, "docs/page.md", options);
  } catch (error) {
    if (DocumentError.isInstance(error)) return { refused: error.reason };
    throw error;
  }
}

const fieldValues: unknown[] = [
  undefined,
  null,
  "",
  "  text  ",
  "a, b，c、d",
  0,
  -1.5,
  1e308,
  true,
  false,
  [],
  ["a", " b ", null, 2, false, "a"],
  [["nested"]],
  [{}],
  {},
  { title: "x" },
];

describe("readFrontmatter: fields checked by hand as the schemas had them (issue 36 item 6)", () => {
  it("title, category and keywords accept and refuse the values the schemas did", () => {
    for (const value of fieldValues) {
      for (const field of ["title", "category", "keywords"]) {
        const result = outcome({ [field]: value });
        const schema = field === "title" ? textSchema : field === "category" ? scalarSchema.nullish() : termsSchema;
        const expected = schema.safeParse(value).success;
        expect({ field, value, accepted: !(typeof result === "object" && result !== null && "refused" in result) }).toEqual({
          field,
          value,
          accepted: expected,
        });
      }
    }
  });

  it("non-finite numbers (YAML .inf and .nan) are refused as a category and as a keyword, as z.number() refused them", () => {
    for (const value of [Number.POSITIVE_INFINITY, Number.NaN]) {
      expect(scalarSchema.safeParse(value).success).toBe(false);
      const yaml = `category: ${value === Number.POSITIVE_INFINITY ? ".inf" : ".nan"}\nkeywords: [a]\n`;
      expect(() => readFrontmatter({ format: "yaml", value: `${yaml}title: T\nx: [1, 2]\n` }, "docs/page.md", options)).toThrow(
        /frontmatter field "category" must be a string/,
      );
      const terms = `keywords: [a, ${value === Number.POSITIVE_INFINITY ? ".inf" : ".nan"}]\nx: [1, 2]\n`;
      expect(() => readFrontmatter({ format: "yaml", value: terms }, "docs/page.md", options)).toThrow(
        /frontmatter field "keywords" must be a string or a list of strings/,
      );
    }
  });

  it("a mapping is what the record schema took: not a list, a string or a number", () => {
    for (const value of [[], [1], "text", 3, true, {}, { a: 1 }]) {
      const refused = outcome(value);
      const accepted = !(typeof refused === "object" && refused !== null && "refused" in refused);
      expect({ value, accepted }).toEqual({ value, accepted: mappingSchema.safeParse(value).success && !Array.isArray(value) });
    }
  });

  it("a __proto__ key sets no field, and a field the frontmatter lacks is looked up as on a plain object", () => {
    const value = '{"__proto__": {"title": "from the prototype"}, "keywords": "k"}';
    expect(readFrontmatter({ format: "json", value }, "docs/page.md", options)).toEqual({ keywords: ["k"], entities: [] });
    const constructorCategory = resolveIngestOptions({ categoryField: "constructor" });
    expect(() => readFrontmatter({ format: "json", value: '{"title": "T"}' }, "docs/page.md", constructorCategory)).toThrow(
      /frontmatter field "constructor" must be a string \(got function\)/,
    );
    expect(readFrontmatter({ format: "json", value: '{"constructor": "c"}' }, "docs/page.md", constructorCategory)).toMatchObject({
      category: "c",
    });
  });
});
