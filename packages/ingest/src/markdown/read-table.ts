import type { BlockContext, Element, LeafBlock, LeafBlockParser, Line, MarkdownConfig } from "@lezer/markdown";

/**
 * A GFM delimiter row (`| --- | :-: |`), after its leading quote markers and spaces.
 * Whitespace is spaces and tabs, and no two parts can match the same run of it, so the test
 * stays linear on any line.
 */
const delimiterCells = /^\|?(?:[ \t]*:?-+:?[ \t]*\|)+(?:[ \t]*:?-+:?[ \t]*)?$/;
const delimiterRow = { test: (line: string): boolean => delimiterCells.test(line.replace(/^[> \t]*/, "")) };

/** A line of only dashes (and trailing spaces). */
const dashes = /^-+[ \t]*$/;

/** How many of the enclosing blocks a line continues (the parser's field, not in its typings). */
function continuedDepth(line: Line): number {
  return (line as unknown as { depth: number }).depth;
}

/**
 * The cells of a table row: text between unescaped pipes, trimmed; a leading pipe opens
 * the first cell, and a trailing one closes the last. Adds a `TableCell` (its inline
 * content parsed) and a `TableDelimiter` per pipe to `elements` when given; returns the
 * number of cells.
 */
function readRow(cx: BlockContext, text: string, from: number, offset: number, elements?: Element[]): number {
  let cells = 0;
  let cellStart = -1;
  let cellEnd = -1;
  let sawPipe = false;
  let escaped = false;
  const closeCell = (): void => {
    if (elements !== undefined && cellStart >= 0) {
      const inline = cx.parser.parseInline(text.slice(cellStart, cellEnd), offset + cellStart);
      elements.push(cx.elt("TableCell", offset + cellStart, offset + cellEnd, inline));
    }
  };
  for (let index = from; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 124 /* | */ && !escaped) {
      // A pipe closes a cell, except a leading pipe with nothing before it.
      if (sawPipe || cellStart >= 0) cells += 1;
      sawPipe = true;
      closeCell();
      elements?.push(cx.elt("TableDelimiter", offset + index, offset + index + 1));
      cellStart = -1;
      cellEnd = -1;
    } else if (escaped || (code !== 32 && code !== 9)) {
      if (cellStart < 0) cellStart = index;
      cellEnd = index + 1;
    }
    escaped = !escaped && code === 92; /* \ */
  }
  if (cellStart >= 0) {
    cells += 1;
    closeCell();
  }
  return cells;
}

function hasPipe(text: string, from: number): boolean {
  for (let index = from; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 124) return true;
    if (code === 92) index += 1;
  }
  return false;
}

/**
 * Reads a table from a paragraph-like block whose first line is the header and second the
 * delimiter row (with as many cells). Rows follow until a blank line or another block, as
 * GFM has it; a row is never a lazy line (one that leaves the enclosing quote) or a line
 * indented four columns past the block (indented code), as in micromark.
 */
class TableReader implements LeafBlockParser {
  /** Undefined before the second line; false: not a table; else the rows so far. */
  private rows: Element[] | false | undefined;

  nextLine(cx: BlockContext, line: Line, leaf: LeafBlock): boolean {
    if (this.rows === undefined) {
      const delimits = this.delimits(cx, line, leaf);
      this.rows = false;
      if (delimits) {
        const header: Element[] = [];
        readRow(cx, leaf.content, 0, leaf.start, header);
        this.rows = [
          cx.elt("TableHeader", leaf.start, leaf.start + leaf.content.length, header),
          cx.elt("TableDelimiter", cx.lineStart + line.pos, cx.lineStart + line.text.length),
        ];
        // From here on every line is a row or ends the table: a line of "=" is a row, as in
        // micromark, not a setext underline that turns the table into a heading.
        leaf.parsers.splice(0, leaf.parsers.length, this);
      }
      return false;
    }
    if (this.rows === false) return false;
    // A line of dashes after a table is a list item or a rule, never a setext underline that turns the table into a heading.
    if (continuedDepth(line) < cx.depth || line.indent >= line.baseIndent + 4 || dashes.test(line.text.slice(line.pos))) {
      return this.finish(cx, leaf);
    }
    const cells: Element[] = [];
    readRow(cx, line.text, line.pos, cx.lineStart, cells);
    this.rows.push(cx.elt("TableRow", cx.lineStart + line.pos, cx.lineStart + line.text.length, cells));
    return false;
  }

  /** Whether the block is a table so far (its header and delimiter row read). */
  get isTable(): boolean {
    return Array.isArray(this.rows);
  }

  /** Whether `line`, as the block's second line, is a delimiter row for its first: same cell count, same container. */
  delimits(cx: BlockContext, line: Line, leaf: LeafBlock): boolean {
    if (this.rows !== undefined || continuedDepth(line) < cx.depth) return false;
    if (line.next !== 45 && line.next !== 58 && line.next !== 124 /* - : | */) return false;
    const text = line.text.slice(line.pos);
    return delimiterRow.test(text) && readRow(cx, leaf.content, 0, 0) === readRow(cx, text, 0, 0);
  }

  finish(cx: BlockContext, leaf: LeafBlock): boolean {
    if (this.rows === false || this.rows === undefined) return false;
    cx.addLeafElement(leaf, cx.elt("Table", leaf.start, leaf.start + leaf.content.length, this.rows));
    return true;
  }
}

/** GFM tables for the block parser (in place of the parser's own `Table` extension; see `TableReader`). */
export const readTable: MarkdownConfig = {
  defineNodes: [{ name: "Table", block: true }, "TableHeader", "TableRow", "TableCell", "TableDelimiter"],
  parseBlock: [
    {
      name: "Table",
      leaf: (_cx, leaf) => (hasPipe(leaf.content, 0) ? new TableReader() : null),
      // A header line followed by a delimiter row with as many cells ends a paragraph: the
      // table starts there. Not a table's rows, nor a lazy line, nor the paragraph's own
      // delimiter row (its first line is the header then).
      endLeaf(cx, line, leaf) {
        const reader = leaf.parsers.find((parser): parser is TableReader => parser instanceof TableReader);
        if (reader !== undefined && (reader.isTable || reader.delimits(cx, line, leaf))) return false;
        if (continuedDepth(line) < cx.depth || !hasPipe(line.text, line.basePos)) return false;
        const next = cx.peekLine();
        return delimiterRow.test(next) && readRow(cx, line.text, line.basePos, 0) === readRow(cx, next, line.basePos, 0);
      },
      before: "SetextHeading",
    },
  ],
};
