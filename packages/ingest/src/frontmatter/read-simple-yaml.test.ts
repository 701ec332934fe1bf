import fc from "fast-check";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { readSimpleYaml } from "./read-simple-yaml.js";

/** What the full YAML parser gives, or "error". */
function fullParse(text: string): unknown {
  const document = parseDocument(text, { prettyErrors: false });
  return document.errors.length > 0 ? "error" : document.toJS({ maxAliasCount: 100 });
}

const keys = ["null", "NULL", "true", "title", "description", "keywords", "category", "tags", "hide_sidebar", "a-b", "x_1", "title"];
const scalars = [
  "Apache APISIX",
  "API Gateway: an intro",
  "a:b",
  "http://example.com/x",
  "trailing:",
  "with # comment",
  "with#hash",
  "true",
  "False",
  "TRUE",
  "yes",
  "null",
  "~",
  "1",
  "1.5",
  "0x1F",
  ".inf",
  "-1",
  "+1",
  "50 TiB",
  "'single'",
  "'it''s'",
  '"double"',
  '"esc \\" aped"',
  '"with: colon # and hash"',
  "'unclosed",
  "[a, b]",
  "['/a/', '/b/']",
  "[\"x\", 'y']",
  "[]",
  "{a: 1}",
  "&anchor value",
  "*alias",
  "!tag value",
  "| literal",
  "> folded",
  "a, b, c",
  "中文 标题",
  "",
  "  padded  ",
];
const line = fc.oneof(
  fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...scalars)).map(([key, value]) => `${key}: ${value}`),
  fc.constantFrom(...keys).map((key) => `${key}:`),
  fc.tuple(fc.constantFrom("", " ", "  ", "\t"), fc.constantFrom(...scalars)).map(([indent, value]) => `${indent}- ${value}`),
  fc.constantFrom("", "   ", "# a comment", "  continued text", "-", "---", "...", "key without colon", " title: x"),
);

describe("issue 14: readSimpleYaml, the fast path for frontmatter", () => {
  it("issue 14: gives what the yaml parser gives whenever it reads a text, and declines the rest", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), fc.constantFrom("\n", "\r\n"), (lines, ending) => {
        const text = lines.join(ending);
        const simple = readSimpleYaml(text);
        if (simple !== undefined) expect(simple, text).toEqual(fullParse(text));
      }),
      { numRuns: 5000, seed: 14 },
    );
  });

  it("issue 14: reads the common frontmatter shapes itself", () => {
    expect(readSimpleYaml("title: Admin API\nkeywords:\n  - Apache APISIX\n  - Route\ndescription: 'It: works'\n")).toEqual({
      title: "Admin API",
      keywords: ["Apache APISIX", "Route"],
      description: "It: works",
    });
    expect(readSimpleYaml("title: x\r\naliases: ['/a/','/b/']\r\nhide_sidebar: true\r\nempty:\r\n")).toEqual({
      title: "x",
      aliases: ["/a/", "/b/"],
      hide_sidebar: true,
      empty: null,
    });
    expect(readSimpleYaml("keywords:\n- compact\n- list\n")).toEqual({ keywords: ["compact", "list"] });
  });

  it("issue 14: leaves comments, numbers, repeated keys, nested lists and multi-line values to the parser", () => {
    for (const text of [
      "title: a # comment",
      "version: 1.5",
      "title: a\ntitle: b",
      "keywords:\n  - a\n   - b",
      "title: one\n  two",
      "items:\n  - a: 1",
      "title: 'it''s'",
      "",
      "\ttitle: x",
    ]) {
      expect(readSimpleYaml(text), JSON.stringify(text)).toBeUndefined();
    }
  });
});
