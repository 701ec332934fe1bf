import { applyEdits, blockText } from "../markdown/document-blocks.js";
import type { ContentBlock, DocumentBlock, Edit } from "../markdown/document-blocks.js";
import { nodeRange } from "../markdown/markdown-tree.js";
import type { MarkdownNode } from "../markdown/markdown-tree.js";
import { overlapTail, splitText } from "./split-text.js";

/** One chunk's text and where it sits in the document. */
export interface ChunkText {
  breadcrumb: string;
  content: string;
}

/** A piece of a section that packing never cuts. */
interface Unit {
  text: string;
  /** What joins this unit to the one before it in the source: a blank line, a line break or a space. */
  separator: string;
  /** A code block or table: never split, may exceed the size bound alone. */
  atomic: boolean;
  /** Whether the tail of this unit may be repeated as overlap (no code or table inside). */
  overlapSafe: boolean;
}

interface Section {
  /** Headings from the title down to this section. */
  trail: string[];
  depth: number;
  /** The heading lines that open the first chunk (a parent heading with no text of its own comes along). */
  prefix: string;
  blocks: ContentBlock[];
}

const atomicTypes = new Set(["code", "table"]);
const containerTypes = new Set(["list", "listItem", "blockquote"]);

/**
 * Chunks a document's blocks by heading: every heading opens a section; a section's
 * blocks are packed into chunks of at most `maxChunkChars`, each chunk after the first
 * starting with the tail of the one before (`overlapChars`, prose only). Blocks too big
 * to fit are split: lists into items, items and block quotes into their blocks, prose at
 * line, sentence or word boundaries. Code blocks and tables are never split.
 */
export function chunkBlocks(input: {
  source: string;
  blocks: readonly DocumentBlock[];
  title: string;
  maxChunkChars: number;
  overlapChars: number;
}): ChunkText[] {
  const sections = toSections(input.blocks);
  const chunks: ChunkText[] = [];
  for (const section of sections) {
    const breadcrumb = breadcrumbOf(input.title, section.trail);
    const reserve = Math.max(input.overlapChars, section.prefix.length) + 2;
    const budget = Math.max(input.maxChunkChars - reserve, Math.floor(input.maxChunkChars / 2));
    const units: Unit[] = [];
    for (const block of section.blocks) {
      const separator = units.length === 0 ? "" : "\n\n";
      toUnits(input.source, block.node, block.text, separator, block.edits, budget, units);
    }
    for (const content of pack(section.prefix, units, input.maxChunkChars, input.overlapChars)) {
      chunks.push({ breadcrumb, content });
    }
  }
  return chunks;
}

function toSections(blocks: readonly DocumentBlock[]): Section[] {
  const sections: Section[] = [];
  const stack: Array<{ depth: number; text: string }> = [];
  let current: Section = { trail: [], depth: 0, prefix: "", blocks: [] };
  let carried = "";
  const close = (next: number): void => {
    if (current.blocks.length > 0) {
      sections.push(current);
      return;
    }
    if (current.prefix === "") return;
    // A heading with no text of its own opens the first chunk of the section below it.
    if (next > current.depth) carried = current.prefix;
    else sections.push(current);
  };
  for (const block of blocks) {
    if (block.kind === "heading") {
      close(block.depth);
      while (stack.length > 0 && (stack[stack.length - 1]?.depth ?? 0) >= block.depth) stack.pop();
      stack.push({ depth: block.depth, text: block.text });
      const prefix = block.markdown === "" ? carried : carried === "" ? block.markdown : `${carried}\n\n${block.markdown}`;
      carried = "";
      current = { trail: stack.map((entry) => entry.text), depth: block.depth, prefix, blocks: [] };
    } else {
      current.blocks.push(block);
    }
  }
  close(0);
  return sections;
}

/**
 * `Title > H2 > H3`: empty headings and a heading that repeats the one before (an H1 equal
 * to the title, also when one of them has code marks the other lacks) are left out.
 */
function breadcrumbOf(title: string, trail: readonly string[]): string {
  const parts = [title];
  let last = comparable(title);
  for (const heading of trail) {
    const key = comparable(heading);
    if (key === "" || key === last) continue;
    parts.push(heading);
    last = key;
  }
  return parts.join(" > ");
}

/** A heading's text for comparison: without code and emphasis marks, spaces collapsed, lower case. */
function comparable(text: string): string {
  return text.replace(/[`*_]/g, "").replace(/\s+/g, " ").trim().toLowerCase();
}

function toUnits(
  source: string,
  node: MarkdownNode,
  text: string,
  separator: string,
  edits: readonly Edit[],
  budget: number,
  units: Unit[],
): void {
  const atomic = atomicTypes.has(node.type);
  if (text.length <= budget || atomic) {
    units.push({ text, separator, atomic, overlapSafe: !atomic && !containsAtomic(node) });
    return;
  }
  if (containerTypes.has(node.type) && node.children !== undefined && node.children.length > 0) {
    const [nodeStart] = nodeRange(node);
    let previousEnd = -1;
    for (const [index, child] of node.children.entries()) {
      const [childStart, childEnd] = nodeRange(child);
      // The first child starts where its container does, so a list marker or `>` stays with it.
      const start = index === 0 ? nodeStart : childStart;
      const childText = blockText(applyEdits(source, start, childEnd, edits));
      if (childText === "") continue;
      const gap = previousEnd === -1 ? "" : source.slice(previousEnd, start);
      const childSeparator = previousEnd === -1 ? separator : /\n[ \t>]*\n/.test(gap) ? "\n\n" : "\n";
      toUnits(source, child, childText, childSeparator, edits, budget, units);
      previousEnd = childEnd;
    }
    return;
  }
  for (const [index, piece] of splitText(text, budget).entries()) {
    units.push({ text: piece, separator: index === 0 ? separator : " ", atomic: false, overlapSafe: true });
  }
}

function containsAtomic(node: MarkdownNode): boolean {
  if (atomicTypes.has(node.type)) return true;
  return node.children?.some(containsAtomic) ?? false;
}

/** Packs a section's units into chunk texts. */
function pack(prefix: string, units: readonly Unit[], maxChunkChars: number, overlapChars: number): string[] {
  const chunks: string[] = [];
  let text = prefix;
  let hasBody = false;
  let previous: Unit | undefined;
  for (const unit of units) {
    const separator = text === "" ? "" : hasBody ? unit.separator : "\n\n";
    if (hasBody && text.length + separator.length + unit.text.length > maxChunkChars) {
      chunks.push(text);
      text = "";
      const overlap = previous?.overlapSafe === true ? overlapTail(previous.text, overlapChars) : "";
      const joiner = unit.separator === "" ? "\n\n" : unit.separator;
      if (overlap !== "" && overlap.length + joiner.length + unit.text.length <= maxChunkChars) text = overlap + joiner;
      text += unit.text;
    } else {
      text += separator + unit.text;
    }
    hasBody = true;
    previous = unit;
  }
  if (text !== "") chunks.push(text);
  return chunks;
}
