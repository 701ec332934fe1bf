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

describe("Hugo shortcodes", () => {
  it("drops shortcode tags with their parameters; an include leaves nothing", () => {
    expect(cleanPhrasing('{{% include "/_common/installation/01-editions.md" %}}', [])).toBe("");
    expect(cleanPhrasing('{{< figure src="/images/site-hierarchy.svg" alt="Site hierarchy" caption="Hierarchy" >}}', [])).toBe("");
    expect(cleanPhrasing("Added in {{< new-in 0.120.0 >}}, the option works.", [])).toBe("Added in , the option works.");
    expect(cleanPhrasing('{{<figure src="a.png">}}', [])).toBe("");
  });

  it("keeps the text between a paired opening and closing tag", () => {
    const note = "{{% note %}}\nSet `baseURL` first.\n{{% /note %}}";
    const code = note.indexOf("`baseURL`");
    expect(cleanPhrasing(note, [[code, code + "`baseURL`".length]])).toBe("Set `baseURL` first.");
    expect(cleanHtmlBlock("<div>\n{{< tabs >}}\nInside the tabs.\n{{< /tabs >}}\n</div>")).toBe("Inside the tabs.");
  });

  it("drops escaped shortcodes ({{</* ... */>}}) outside code", () => {
    expect(cleanPhrasing('Write {{</* ref "about.md" */>}} to link.', [])).toBe("Write  to link.");
    expect(cleanPhrasing("{{%/* note */%}}Shown{{%/* /note */%}}", [])).toBe("Shown");
  });

  it("drops a tag whose parameters span lines", () => {
    const raw = '{{< figure\n  src="a.png"\n  caption="A > B"\n>}}\nThe picture shows the tree.';
    expect(cleanPhrasing(raw, [])).toBe("The picture shows the tree.");
  });

  it("never touches a code span, also one that holds a shortcode or a closer", () => {
    const raw = "Write `{{< figure >}}` here";
    expect(cleanPhrasing(raw, [[6, 22]])).toBe(raw);
    const overlapping = "{{< a `>}}` b";
    expect(cleanPhrasing(overlapping, [[6, 11]])).toBe(overlapping);
  });

  it("leaves malformed and unbalanced shortcodes readable", () => {
    expect(cleanPhrasing("{{< tabs >}}\nOnly an opening tag.", [])).toBe("Only an opening tag.");
    expect(cleanPhrasing("A {{< broken text and {{% note %}}more", [])).toBe("A {{< broken text and more");
    expect(cleanPhrasing("{{< figure src=x", [])).toBe("{{< figure src=x");
    expect(cleanPhrasing("Templates use {{ .Title }} and {{% }} here", [])).toBe("Templates use {{ .Title }} and {{% }} here");
  });

  it("cleans 100k unclosed `{{<` (and other adversarial inputs) in linear time, never throwing", () => {
    const unclosed = "{{<".repeat(100_000);
    expect(cleanPhrasing(unclosed, [])).toBe(unclosed);
    expect(cleanHtmlBlock(unclosed)).toBe(unclosed);
    const percent = "{{% a ".repeat(100_000);
    expect(cleanPhrasing(percent, [])).toBe(percent);
    const closedAtTheEnd = `${"{{< a ".repeat(100_000)}>}}`;
    expect(cleanPhrasing(closedAtTheEnd, [])).toBe("{{< a ".repeat(99_999).trimEnd());
  }, 2_000);
});
