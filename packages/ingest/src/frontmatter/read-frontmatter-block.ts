/** The languages a document's frontmatter may be written in: YAML (`---`), TOML (`+++`) or JSON. */
export type FrontmatterFormat = "yaml" | "toml" | "json";

/** Where a document's frontmatter ends, its language and its text. */
export interface FrontmatterBlock {
  format: FrontmatterFormat;
  /** Offset just past the closing fence or brace (and the spaces after it), before its line ending. */
  end: number;
  /** YAML and TOML: the text between the fences, without the line endings next to them. JSON: the whole object. */
  value: string;
}

const openingFence = /^(?:---|\+\+\+)[ \t]*(?=[\r\n])/;
/** A fence line from `lastIndex` on: the fence, spaces, then a line ending or the end of the text. */
const closingFences = {
  yaml: /---[ \t]*(?![^\r\n])/y,
  toml: /\+\+\+[ \t]*(?![^\r\n])/y,
};
/** A JSON object opens the text: `{`, then a key (`"`) or the closing brace. `{{<` (a Hugo shortcode) is not one. */
const jsonOpening = /^\{[ \t\r\n]*["}]/;
const spaces = /[ \t]*/y;

/**
 * The frontmatter at the very start of a text (a BOM already removed), as Hugo reads it:
 *
 * - YAML (as the micromark frontmatter extension reads it): a line of exactly `---` (spaces
 *   after it allowed), lines of YAML, and a closing `---` line;
 * - TOML: the same between `+++` lines;
 * - JSON: an object that opens the text, up to its matching `}` (braces inside strings do
 *   not count).
 *
 * Undefined when the text opens with none of these or the block is not closed (see
 * `unclosedFrontmatter`). Linear in the length of the text.
 */
export function readFrontmatterBlock(text: string): FrontmatterBlock | undefined {
  const open = openingFence.exec(text);
  if (open === null) return jsonOpening.test(text) ? readJsonBlock(text) : undefined;
  const format = open[0].startsWith("+") ? "toml" : "yaml";
  const fenceLine = closingFences[format];
  const lineEnd = /\r\n|\r|\n/g;
  lineEnd.lastIndex = open[0].length;
  for (let ending = lineEnd.exec(text); ending !== null; ending = lineEnd.exec(text)) {
    const lineStart = ending.index + ending[0].length;
    fenceLine.lastIndex = lineStart;
    const fence = fenceLine.exec(text);
    if (fence === null) continue;
    const value = text.slice(open[0].length, lineStart).replace(/^(\r?\n|\r)|(\r?\n|\r)$/g, "");
    return { format, end: lineStart + fence[0].length, value };
  }
  return undefined;
}

/**
 * Why the text opens with frontmatter that `readFrontmatterBlock` could not close, or
 * undefined when it does not. A `---` line counts only when a `key:` line follows (else it
 * is a thematic break), a `+++` line when a `key =` or `[table]` line follows.
 */
export function unclosedFrontmatter(text: string): string | undefined {
  if (/^---[ \t]*\r?\n[ \t]*[\w-]+[ \t]*:/.test(text)) return "frontmatter is not closed (no second --- line)";
  if (/^\+\+\+[ \t]*\r?\n\s*(?:\[|[\w"'.-]+[ \t]*=)/.test(text)) return "frontmatter is not closed (no second +++ line)";
  if (jsonOpening.test(text) && jsonObjectEnd(text) === -1) return "frontmatter is not closed (the JSON object has no closing })";
  return undefined;
}

function readJsonBlock(text: string): FrontmatterBlock | undefined {
  const end = jsonObjectEnd(text);
  if (end === -1) return undefined;
  spaces.lastIndex = end;
  spaces.exec(text);
  return { format: "json", end: spaces.lastIndex, value: text.slice(0, end) };
}

/** The offset just past the `}` that closes the object opening the text, or -1. */
function jsonObjectEnd(text: string): number {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b) {
      depth += 1;
    } else if (code === 0x7d) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}
