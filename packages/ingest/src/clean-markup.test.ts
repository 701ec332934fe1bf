import { describe, expect, it } from "vitest";
import { cleanHtmlBlock, cleanPhrasing, isMdxEsm } from "./clean-markup.js";

describe("cleanHtmlBlock", () => {
  it("drops comments, <head> blocks and wrapper tags", () => {
    expect(cleanHtmlBlock("<!--\n# Licensed to the ASF\n-->")).toBe("");
    expect(cleanHtmlBlock('<head>\n  <link rel="canonical" href="https://example.org" />\n</head>')).toBe("");
    expect(cleanHtmlBlock("</TabItem>\n</Tabs>")).toBe("");
    expect(cleanHtmlBlock('<TabItem value="adc" label="ADC">')).toBe("");
    expect(cleanHtmlBlock("<EmailSubscriptionWrapper />")).toBe("");
    expect(cleanHtmlBlock("<script>alert(1)</script>\n<style>p {}</style>")).toBe("");
  });

  it("keeps the text between tags, a line per block element", () => {
    expect(cleanHtmlBlock('<div style={{textAlign: "center"}}>\n<img src="x.png" alt="Diagram" />\n</div>')).toBe("");
    expect(cleanHtmlBlock("<details><summary>Result</summary>\nRows: 3\n</details>")).toBe("Result\nRows: 3");
    expect(cleanHtmlBlock("<table><tr><td>a</td><td>b</td></tr></table>")).toBe("a  b");
  });

  it("keeps tags it does not know (placeholders) and an unterminated comment drops the rest", () => {
    expect(cleanHtmlBlock("<your-key>")).toBe("<your-key>");
    expect(cleanHtmlBlock("text\n<!-- open")).toBe("text");
  });
});

describe("cleanPhrasing", () => {
  it("drops inline HTML and JSX, keeps code spans", () => {
    const raw = 'A <span class="mark">marked</span> word, `<Tabs>` code<br/>and <Badge text="new"/> more';
    const start = raw.indexOf("`<Tabs>`");
    expect(cleanPhrasing(raw, [[start, start + "`<Tabs>`".length]])).toBe("A marked word, `<Tabs>` code and  more");
  });

  it("drops a JSX tag spread over lines with braces and quotes", () => {
    const raw = "<Tabs\n  groupId=\"api\"\n  values={[\n    {label: 'A > B', value: 'a'},\n  ]}>\n<TabItem value=\"a\">";
    expect(cleanPhrasing(raw, [])).toBe("");
  });

  it("drops MDX comments and admonition markers, keeping an admonition title", () => {
    expect(cleanPhrasing("{/* hidden */}Shown", [])).toBe("Shown");
    expect(cleanPhrasing(":::note\nText\n:::", [])).toBe("Text");
    expect(cleanPhrasing(":::info IMPORTANT\nText", [])).toBe("IMPORTANT\nText");
  });

  it("leaves text without markup untouched (same string)", () => {
    const raw = "a < b and c > d";
    expect(cleanPhrasing(raw, [])).toBe(raw);
  });
});

describe("isMdxEsm", () => {
  it("recognises MDX import and export statements", () => {
    expect(isMdxEsm("import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';")).toBe(true);
    expect(isMdxEsm('import {A, B} from "./parts";')).toBe(true);
    expect(isMdxEsm("import './style.css';")).toBe(true);
    expect(isMdxEsm("export const meta = { title: 'x' };")).toBe(true);
  });

  it("leaves prose that starts with the same words alone", () => {
    expect(isMdxEsm("import the certificate before you start.")).toBe(false);
    expect(isMdxEsm("export the variable, then run the script.")).toBe(false);
    expect(isMdxEsm("Import Tabs from somewhere")).toBe(false);
  });
});
