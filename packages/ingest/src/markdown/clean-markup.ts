import { createShortcodeReader } from "../shortcodes/create-shortcode-reader.js";
import type { ShortcodeReader } from "../shortcodes/create-shortcode-reader.js";

/**
 * Cleaning of real-world noise in Markdown and MDX: HTML comments (licence headers),
 * `<head>` blocks, JSX component tags (`<Tabs>`, `<TabItem value="...">`), HTML wrapper
 * tags (`<div>`, `<span>`, `<br/>`), Hugo shortcodes (`{{< figure src="..." >}}`,
 * `{{% note %}}`), MDX comments, Docusaurus admonition markers and MDX `import`/`export`
 * lines. Tags go, the text between them stays. The functions work on raw slices of the
 * source that the Markdown parser has already classified (HTML nodes, paragraph text);
 * code blocks and code spans are never passed in.
 */

/** HTML elements whose tags are dropped (their inner text stays). Unknown lowercase tags such as `<your-key>` are kept. */
const htmlElements = new Set(
  (
    "a abbr address article aside audio b bdi bdo big blockquote body br button caption center cite code col colgroup " +
    "dd del details dfn div dl dt em embed fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 header hr html i " +
    "iframe img input ins kbd label legend li link main mark meta nav noscript object ol optgroup option p param picture " +
    "pre q s samp section select small source span strike strong sub summary sup svg table tbody td textarea tfoot th " +
    "thead time title tr track tt u ul var video wbr path g"
  ).split(" "),
);

/** Elements that break a line: their tags become a line break in block HTML and a space inline. */
const blockElements = new Set(
  (
    "address article aside blockquote body br center dd details div dl dt fieldset figcaption figure footer form h1 h2 " +
    "h3 h4 h5 h6 header hr html li main nav ol p pre section summary table tbody tfoot thead tr ul"
  ).split(" "),
);

/** Elements whose whole content is noise: dropped from the opening to the closing tag. */
const droppedElements = new Set(["head", "script", "style"]);

interface Tag {
  /** Offset just past the closing `>`. */
  end: number;
  /** The tag name; `""` for a JSX fragment (`<>`, `</>`). */
  name: string;
  closing: boolean;
  selfClosing: boolean;
}

/**
 * The longest tag read, from `<` to `>`: real JSX tags with attribute objects stay far
 * below it. Past it the `<` is text; the bound keeps a text full of unterminated tags
 * (`<x {` repeated) from costing quadratic time.
 */
const maxTagChars = 2000;

const nameStart = /[A-Za-z]/;
const nameChar = /[A-Za-z0-9_.:-]/;

/**
 * Reads the tag that starts at `text[start] === "<"`, the JSX way: attribute values in
 * quotes or in (nested) braces may hold `>` and line breaks. Returns undefined when there
 * is no complete tag there (within `maxTagChars`).
 */
function readTag(text: string, start: number): Tag | undefined {
  let index = start + 1;
  const closing = text[index] === "/";
  if (closing) index += 1;
  const nameBegin = index;
  if (text[index] === ">") return { end: index + 1, name: "", closing, selfClosing: false };
  if (!nameStart.test(text[index] ?? "")) return undefined;
  while (index < text.length && nameChar.test(text[index] ?? "")) index += 1;
  const name = text.slice(nameBegin, index);
  const after = text[index];
  if (after !== ">" && after !== "/" && after !== " " && after !== "\t" && after !== "\n" && after !== "\r") return undefined;
  let depth = 0;
  let quote: string | undefined;
  const limit = Math.min(text.length, start + maxTagChars);
  for (; index < limit; index += 1) {
    const character = text[index];
    if (quote !== undefined) {
      if (character === quote) quote = undefined;
    } else if (character === '"' || character === "'" || (character === "`" && depth > 0)) {
      quote = character;
    } else if (character === "{") {
      depth += 1;
    } else if (character === "}") {
      depth = Math.max(0, depth - 1);
    } else if (character === "<" && depth === 0) {
      return undefined;
    } else if (character === ">" && depth === 0) {
      return { end: index + 1, name, closing, selfClosing: text[index - 1] === "/" };
    }
  }
  return undefined;
}

/** A JSX component (`Tabs`, `TabItem`, `Foo.Bar`) or fragment, as opposed to an HTML element. */
function isComponent(name: string): boolean {
  return name === "" || (name[0] ?? "") !== (name[0] ?? "").toLowerCase();
}

/** Whether a tag is markup to drop, and what it leaves behind. */
function tagReplacement(tag: Tag, block: boolean): string | undefined {
  if (isComponent(tag.name)) return block ? "\n" : "";
  const lower = tag.name.toLowerCase();
  if (!htmlElements.has(lower)) return undefined;
  if (lower === "td" || lower === "th") return " ";
  if (blockElements.has(lower)) return block ? "\n" : " ";
  return "";
}

/** Offset of the closing tag `</name>` (case-insensitive) at or after `from`, and its end; -1 when none. */
function findClosingTag(text: string, name: string, from: number): number {
  const pattern = new RegExp(`</${name}\\s*>`, "ig");
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  return match === null ? -1 : match.index + match[0].length;
}

/**
 * Drops tags (HTML, JSX, Hugo shortcodes) from a slice of text. `block` says whether the
 * slice is block HTML (tags become line breaks) or inline text (tags become nothing or a
 * space). `protectedRanges` (sorted, relative to the slice) are left untouched: code spans.
 */
function stripTags(text: string, block: boolean, protectedRanges: ReadonlyArray<readonly [number, number]> = []): string {
  if (!text.includes("<") && !text.includes("{/*") && !text.includes("{{%")) return text;
  let output = "";
  let copied = 0;
  let rangeIndex = 0;
  let index = 0;
  let shortcodeEnd: ShortcodeReader | undefined;
  // The first `*/}` at or after `commentFrom` (-1: none), remembered so that many unclosed `{/*` cost linear time.
  let commentFrom = -1;
  let commentClose = -1;
  while (index < text.length) {
    const character = text[index];
    if (character !== "<" && character !== "{") {
      index += 1;
      continue;
    }
    while (rangeIndex < protectedRanges.length && (protectedRanges[rangeIndex]?.[1] ?? 0) <= index) rangeIndex += 1;
    const range = protectedRanges[rangeIndex];
    if (range !== undefined && range[0] <= index) {
      index = range[1];
      continue;
    }
    let end = -1;
    let replacement = "";
    if (character === "{") {
      if (text.startsWith("{{", index)) {
        // A Hugo shortcode tag, unless it would reach into a code span.
        shortcodeEnd ??= createShortcodeReader(text);
        const close = shortcodeEnd(index);
        if (close !== -1 && (range === undefined || range[0] >= close)) {
          end = close;
          replacement = block ? "\n" : "";
        }
      } else if (text.startsWith("{/*", index)) {
        // An MDX comment: {/* ... */}
        if (commentFrom === -1 || (commentClose !== -1 && commentClose < index + 3)) {
          commentFrom = index + 3;
          commentClose = text.indexOf("*/}", commentFrom);
        }
        if (commentClose !== -1) end = commentClose + 3;
      }
    } else if (text.startsWith("<!--", index)) {
      const close = text.indexOf("-->", index + 4);
      end = close === -1 ? text.length : close + 3;
      replacement = block ? "\n" : "";
    } else {
      const tag = readTag(text, index);
      if (tag !== undefined) {
        const lower = tag.name.toLowerCase();
        if (!tag.closing && !tag.selfClosing && droppedElements.has(lower)) {
          const close = findClosingTag(text, lower, tag.end);
          end = close === -1 ? text.length : close;
          replacement = block ? "\n" : "";
        } else {
          const tagText = tagReplacement(tag, block);
          if (tagText !== undefined) {
            end = tag.end;
            replacement = tagText;
          }
        }
      }
    }
    if (end === -1) {
      index += 1;
      continue;
    }
    output += text.slice(copied, index) + replacement;
    copied = end;
    index = end;
  }
  return copied === 0 ? text : output + text.slice(copied);
}

/** Docusaurus admonition markers (`:::tip`, `:::note Title`, `:::`) at the start of a line; a title stays. */
const admonitionMarker = /^([ \t]*):::[A-Za-z-]*[ \t]*/gm;

/**
 * Cleans block HTML (an mdast `html` node at block level): comments and `<head>`,
 * `<script>`, `<style>` blocks go; HTML and JSX tags go, their text stays, a line per
 * block element. The result has no blank lines and no surrounding whitespace; it is
 * empty when only markup was there.
 */
export function cleanHtmlBlock(raw: string): string {
  return tidyLines(stripTags(raw, true));
}

/**
 * Cleans the inline content of a paragraph, heading or table cell (the slice from its
 * first to its last child): inline HTML and JSX tags (also a JSX tag over several lines
 * that the Markdown parser left as text), MDX comments and admonition markers go.
 * `protectedRanges` (sorted, relative to `raw`) are code spans and stay as they are.
 * Line breaks inside the text are kept; lines left empty go.
 */
export function cleanPhrasing(raw: string, protectedRanges: ReadonlyArray<readonly [number, number]>): string {
  let text = stripTags(raw, false, protectedRanges);
  if (text.includes(":::")) text = text.replace(admonitionMarker, "$1");
  return text === raw ? raw : tidyLines(text);
}

/** Drops blank lines (an HTML block or a paragraph has none of its own) and trailing spaces; trims the ends. */
function tidyLines(text: string): string {
  const kept: string[] = [];
  for (const line of text.split("\n")) if (line.trim() !== "") kept.push(line.trimEnd());
  return kept.join("\n").trim();
}

const esmImport = /^import\s+(?:["'][^"']+["']|[\s\S]*?\bfrom\s*["'][^"']+["'])\s*;?\s*$/;
const esmExport = /^export\s+(?:const|let|var|function|class|async|default|\{|\*)/;

/**
 * Whether a top-level paragraph is MDX ESM (`import Tabs from '@theme/Tabs';`,
 * `export const meta = {...}`), which MDX treats as code, not text. Every line of an
 * import paragraph must be an import statement.
 */
export function isMdxEsm(raw: string): boolean {
  if (raw.startsWith("export")) return esmExport.test(raw);
  if (!raw.startsWith("import")) return false;
  const statements = raw.split(/;\s*\n|\n(?=import\s)/);
  return statements.every((statement) => esmImport.test(statement.trim()));
}
