/** What a model could take for an element tag: `<evidence`, `</evidence`, with any spacing and case. */
export const evidenceToken = /<\s*\/?\s*evidence/giu;

/** The content as a reader that folds look-alikes would see it: NFKC, format characters (Cf) removed. */
export function foldedView(content: string): string {
  return content.normalize("NFKC").replace(/\p{Cf}/gu, "");
}

export interface EvidenceFences {
  /** The lines outside every `<evidence>` element, tags excluded. */
  outside: string[];
  /** The opening tag lines, one per element. */
  tags: string[];
  /** Each element's content lines. */
  insides: string[][];
  /** Tokens found outside the fences and inside the tags' attributes. */
  strayTokens: string[];
}

/**
 * Splits the tool's content, in its folded view, into the lines outside the fences, the
 * opening tags and each element's content. A fence opens on a line that is one whole
 * `<evidence name="value" ...>` tag and closes on a line that is exactly `</evidence>`.
 */
export function readEvidenceFences(content: string): EvidenceFences {
  const fences: EvidenceFences = { outside: [], tags: [], insides: [], strayTokens: [] };
  let inside: string[] | undefined;
  for (const line of foldedView(content).split("\n")) {
    if (inside === undefined && /^<evidence( [a-z_]+="[^"]*")+>$/u.test(line)) {
      fences.tags.push(line);
      fences.strayTokens.push(...(line.slice("<evidence".length).match(evidenceToken) ?? []));
      inside = [];
    } else if (inside !== undefined && line === "</evidence>") {
      fences.insides.push(inside);
      inside = undefined;
    } else if (inside !== undefined) {
      inside.push(line);
    } else {
      fences.outside.push(line);
      fences.strayTokens.push(...(line.match(evidenceToken) ?? []));
    }
  }
  if (inside !== undefined) fences.insides.push(inside);
  return fences;
}
