/** How much of a tool content is evidence text, in UTF-8 bytes. */
export interface EvidenceShare {
  /** Bytes of the whole content. */
  contentBytes: number;
  /** Bytes of the lines between each `<evidence ...>` tag line and its `</evidence>` line (the chunk text as rendered). */
  evidenceBytes: number;
  /** How many evidence elements the content holds. */
  blocks: number;
}

const encoder = new TextEncoder();
const bytes = (text: string): number => encoder.encode(text).length;

/**
 * The share of `content` (what `renderEvidenceContent` gives the model) that is evidence
 * text: the chunk content inside the `<evidence>` elements, without their tags and without
 * the line breaks that frame them. An element's tag stands on a line of its own, starting
 * `<evidence ` and ending `>`, and its end is a line that is exactly `</evidence>` (the
 * renderer escapes every `<` of a document, so no document line can look like either).
 */
export function evidenceShare(content: string): EvidenceShare {
  let evidenceBytes = 0;
  let blocks = 0;
  let inside: string[] | undefined;
  for (const line of content.split("\n")) {
    if (inside === undefined) {
      if (line.startsWith("<evidence ") && line.endsWith(">")) inside = [];
      continue;
    }
    if (line === "</evidence>") {
      evidenceBytes += bytes(inside.join("\n"));
      blocks += 1;
      inside = undefined;
      continue;
    }
    inside.push(line);
  }
  if (inside !== undefined) throw new Error(`an <evidence> element is not closed (element ${blocks + 1})`);
  return { contentBytes: bytes(content), evidenceBytes, blocks };
}
