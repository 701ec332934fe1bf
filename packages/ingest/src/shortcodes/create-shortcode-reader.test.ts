import { describe, expect, it } from "vitest";
import { createShortcodeReader } from "./create-shortcode-reader.js";

/** The tag that starts at `start`, as text, or undefined. */
function tagAt(text: string, start = 0): string | undefined {
  const end = createShortcodeReader(text)(start);
  return end === -1 ? undefined : text.slice(start, end);
}

describe("createShortcodeReader", () => {
  it("reads opening, closing, self-closing and escaped tags of both kinds", () => {
    expect(tagAt('{{< figure src="a.png" >}} after')).toBe('{{< figure src="a.png" >}}');
    expect(tagAt("{{% note %}}text")).toBe("{{% note %}}");
    expect(tagAt("{{< /tabs >}}")).toBe("{{< /tabs >}}");
    expect(tagAt("{{</tabs>}}")).toBe("{{</tabs>}}");
    expect(tagAt('{{< youtube id="x" />}}')).toBe('{{< youtube id="x" />}}');
    expect(tagAt('{{</* figure src="a.png" */>}} is how')).toBe('{{</* figure src="a.png" */>}}');
    expect(tagAt("{{%/* /note */%}}")).toBe("{{%/* /note */%}}");
    expect(tagAt("{{< code-toggle/nested.v2 >}}")).toBe("{{< code-toggle/nested.v2 >}}");
  });

  it("reads a tag whose parameters span lines", () => {
    const text = '{{< figure\n  src="a.png"\n  caption="A > B"\n>}}\nNext line';
    expect(tagAt(text)).toBe('{{< figure\n  src="a.png"\n  caption="A > B"\n>}}');
  });

  it("refuses what is not a tag: no name, no closer, the other kind's closer, another opener first", () => {
    expect(tagAt("{{< >}}")).toBeUndefined();
    expect(tagAt("{{<")).toBeUndefined();
    expect(tagAt("{{< figure src=x")).toBeUndefined();
    expect(tagAt("{{< note %}}")).toBeUndefined();
    expect(tagAt("{{% note >}}")).toBeUndefined();
    expect(tagAt("{{< a {{< b >}}")).toBeUndefined();
    expect(tagAt("{{< a {{< b >}}", 6)).toBe("{{< b >}}");
    expect(tagAt("{{ .Title }}")).toBeUndefined();
    expect(tagAt("text {{< a >}}", 0)).toBeUndefined();
  });

  it("reads every candidate of adversarial inputs (100k unclosed openers, one closer at the very end) without blowing up", () => {
    const unclosed = "{{<".repeat(100_000);
    const mixed = `${'{{< a "x '.repeat(50_000) + "{{% b '".repeat(50_000)}>}}`;
    const spaces = `{{<${" ".repeat(200_000)}x`;
    for (const text of [unclosed, mixed, spaces]) {
      const read = createShortcodeReader(text);
      let tags = 0;
      for (let index = text.indexOf("{{"); index !== -1; index = text.indexOf("{{", index + 1)) if (read(index) !== -1) tags += 1;
      expect(tags).toBe(0);
    }
    const closedAtTheEnd = `${"{{< a ".repeat(100_000)}>}}`;
    const read = createShortcodeReader(closedAtTheEnd);
    const starts = Array.from({ length: 100_000 }, (_, index) => index * 6);
    expect(starts.filter((start) => read(start) !== -1)).toEqual([599_994]);
  }, 2_000);
});
