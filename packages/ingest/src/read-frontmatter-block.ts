/** Where a document's `---` frontmatter ends, and its text. */
export interface FrontmatterBlock {
  /** Offset just past the closing fence (and the spaces after it), before its line ending. */
  end: number;
  /** The text between the fences, without the line endings next to them. */
  value: string;
}

const openingFence = /^---[ \t]*(?=[\r\n])/;
/** A fence line from `lastIndex` on: `---`, spaces, then a line ending or the end of the text. */
const fenceLine = /---[ \t]*(?![^\r\n])/y;

/**
 * The YAML frontmatter at the very start of a text (as the micromark frontmatter extension
 * reads it): a line of exactly `---` (spaces after it allowed), lines of YAML, and a closing
 * `---` line. Undefined when the text does not open with a fence or the fence is not closed.
 */
export function readFrontmatterBlock(text: string): FrontmatterBlock | undefined {
  const open = openingFence.exec(text);
  if (open === null) return undefined;
  const lineEnd = /\r\n|\r|\n/g;
  lineEnd.lastIndex = open[0].length;
  for (let ending = lineEnd.exec(text); ending !== null; ending = lineEnd.exec(text)) {
    const lineStart = ending.index + ending[0].length;
    fenceLine.lastIndex = lineStart;
    const fence = fenceLine.exec(text);
    if (fence === null) continue;
    const value = text.slice(open[0].length, lineStart).replace(/^(\r?\n|\r)|(\r?\n|\r)$/g, "");
    return { end: lineStart + fence[0].length, value };
  }
  return undefined;
}
