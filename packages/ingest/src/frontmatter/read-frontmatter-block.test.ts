import { describe, expect, it } from "vitest";
import { readFrontmatterBlock, unclosedFrontmatter } from "./read-frontmatter-block.js";

describe("readFrontmatterBlock", () => {
  it("finds YAML between --- lines and TOML between +++ lines, at the very start of the text only", () => {
    expect(readFrontmatterBlock("---\ntitle: A\n---\nText.\n")).toEqual({ format: "yaml", end: 16, value: "title: A" });
    const toml = '+++\ntitle = "A"\nweight = 1\n+++  \r\n\r\nText.\n';
    expect(readFrontmatterBlock(toml)).toEqual({ format: "toml", end: toml.indexOf("\r"), value: 'title = "A"\nweight = 1' });
    expect(readFrontmatterBlock('\n+++\ntitle = "A"\n+++\n')).toBeUndefined();
    expect(readFrontmatterBlock('Text.\n\n+++\ntitle = "A"\n+++\n')).toBeUndefined();
    // A +++ block is closed by +++, not by ---.
    expect(readFrontmatterBlock('+++\ntitle = "A"\n---\nText.\n')).toBeUndefined();
  });

  it("finds a JSON object that opens the text, up to its matching brace; braces in strings do not count", () => {
    const text = '{\n  "title": "Braces } { and \\\\"quotes\\\\"",\n  "params": { "a": [1, {"b": 2}] }\n}\n\nText.\n';
    const block = readFrontmatterBlock(text);
    expect(block?.format).toBe("json");
    expect(block?.value).toBe(text.slice(0, text.indexOf("}\n\nText") + 1));
    expect(readFrontmatterBlock("{}\nText.\n")).toEqual({ format: "json", end: 2, value: "{}" });
  });

  it("does not take a Hugo shortcode or a brace in prose for JSON", () => {
    expect(readFrontmatterBlock('{{< figure src="a.png" >}}\n\nText.\n')).toBeUndefined();
    expect(readFrontmatterBlock("{{% note %}}Text.{{% /note %}}\n")).toBeUndefined();
    expect(readFrontmatterBlock("{ not json }\n")).toBeUndefined();
  });

  it("says why a block that opens the text is not closed", () => {
    expect(unclosedFrontmatter("---\ntitle: Open\n\nText.\n")).toMatch(/no second --- line/);
    expect(unclosedFrontmatter('+++\ntitle = "Open"\n\nText.\n')).toMatch(/no second \+\+\+ line/);
    expect(unclosedFrontmatter("+++\n[params]\nText.\n")).toMatch(/no second \+\+\+ line/);
    expect(unclosedFrontmatter('{\n  "title": "Open"\n\nText.\n')).toMatch(/JSON object has no closing }/);
    expect(unclosedFrontmatter('{ "title": "an unclosed string }\n')).toMatch(/JSON object has no closing }/);
    expect(unclosedFrontmatter("---\n\nA thematic break.\n")).toBeUndefined();
    expect(unclosedFrontmatter("+++ is not a fence\n")).toBeUndefined();
    expect(unclosedFrontmatter("{{< tabs >}}\n")).toBeUndefined();
  });
});
