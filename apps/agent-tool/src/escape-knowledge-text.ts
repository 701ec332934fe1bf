/**
 * Where a string from the knowledge base (or a port) is placed in the tool's content:
 * - `line`: on a line of the content's own, outside every `<evidence>` element (notes, source
 *   lists, messages);
 * - `attribute`: inside a double-quoted attribute of an `<evidence>` tag;
 * - `content`: between an `<evidence>` tag and its `</evidence>`, as its own lines.
 */
export type KnowledgeTextPlace = "line" | "attribute" | "content";

// Every character whose NFKC form holds a "<" (the ASCII one, small and fullwidth forms):
// escaping them all means no text of the knowledge base can open or close an element,
// whatever spacing, case, zero-width, soft-hyphen or bidi characters it puts inside the tag.
const lessThan = /[<\uFE64\uFF1C]/gu;
// Angle brackets that do not fold to "<" but look like one to a reader (a model among them):
// modifier and Canadian syllabics letters, single angle quotation marks, mathematical and
// ornamental angle brackets, "not less-than". They become numeric character references. The
// CJK marks 〈 and 《 are ordinary Chinese punctuation (titles of books and articles): they stay,
// unless what follows them reads as the tool's own element (`〈/evidence`, `《 evidence`).
const lookAlike = /[\u02C2\u1438\u2039\u226E\u27E8\u276C\u276E\u29FC]/gu;
const reference = (character: string) => `&#x${(character.codePointAt(0) as number).toString(16).toUpperCase()};`;
const cjkAngle = /[\u3008\u300A]/gu;
const skipped = /[\s\p{Cf}]/u;
/** Characters read as "/" between the mark and the word: the slash, its fullwidth form and its look-alikes. */
const slashes = new Set(["/", "\uFF0F", "\u2215", "\u2044", "\u29F8"]);
/**
 * A CJK angle mark that opens what reads as an `evidence` tag (spacing and format characters
 * skipped before the word, a slash or a look-alike of one allowed, the word in any case or
 * width, and no letter, digit, `_` or `-` right after it) becomes a reference; others stay
 * (`《Evidence-Based Medicine》` stays: a word goes on after "evidence").
 */
const cjkAngleReference = (character: string, offset: number, text: string): string => {
  let word = "";
  let slash = false;
  for (const next of text.slice(offset + 1)) {
    // Once the word is whole, the very next character decides: a word going on ("Evidence-Based")
    // is no tag; a space (attributes follow) or a closing mark is one.
    if (word === "evidence") return /[\p{L}\p{N}_-]/u.test(next.normalize("NFKC")) ? character : reference(character);
    if (skipped.test(next)) continue;
    const folded = next.normalize("NFKC");
    if (word === "" && !slash && slashes.has(next)) {
      slash = true;
      continue;
    }
    word += folded.toLowerCase();
    if (!"evidence".startsWith(word)) return character;
  }
  return word === "evidence" ? reference(character) : character;
};
// The characters whose NFKC form is a double quote, which could end an attribute.
const quote = /["\uFF02]/gu;
// Format characters (Cf): zero-width spaces and joiners, soft hyphens, bidi controls.
const format = /\p{Cf}/gu;
// Control characters (line breaks among them) and the Unicode line and paragraph separators.
const breaks = /[\p{Cc}\u2028\u2029]/gu;

/**
 * `text` made safe for its `place` in the content the model reads: it cannot open or close an
 * `<evidence>` element (checked after NFKC and without format characters; angle brackets that
 * only look like `<` become `&#x2039;` and the like), and outside the
 * elements it cannot start a line of its own: line breaks, controls and format characters
 * become spaces or vanish, so a document cannot add a `SYSTEM:` line beside the evidence.
 */
export function escapeKnowledgeText(text: string, place: KnowledgeTextPlace): string {
  if (place === "content") return text.replace(lessThan, "&lt;").replace(lookAlike, reference).replace(cjkAngle, cjkAngleReference);
  const flat = text
    .replace(format, "")
    .replace(breaks, " ")
    .replace(/&/g, "&amp;")
    .replace(lessThan, "&lt;")
    .replace(lookAlike, reference)
    .replace(cjkAngle, cjkAngleReference)
    .replace(/\s+/g, " ")
    .trim();
  // Double quotes become single ones: the value stays readable and cannot end the attribute.
  return place === "attribute" ? flat.replace(quote, "'") : flat;
}
