// Recognises Hugo shortcode tags in a slice of text, so that cleaning can drop them:
//
// - `{{< name params >}}` and `{{% name params %}}`, opening or closing (`{{< /name >}}`),
//   self-closing (`{{< name />}}`), with or without spaces, over several lines;
// - escaped ones, which Hugo prints literally: `{{</* name params */>}}`, `{{%/* name */%}}`.
//
// A tag is the opener, a name (letters, digits, `_`, `-`, `.`, `/`), anything up to the
// first matching closer (`>}}` after `{{<`, `%}}` after `{{%`), with no other opener in
// between. Quotes in the parameters are not interpreted: a `>}}` inside a quoted value
// ends the tag early (Hugo documentation only writes that inside code, which is never
// cleaned). Anything else (`{{<` alone, no name, no closer, another opener first) is not
// a tag and stays as text.
//
// Every search only moves forward and is remembered, so reading every candidate of a text
// costs time linear in its length, whatever the input (100k unclosed `{{<` included); no
// regular expression is involved.

/** The end offset (just past `>}}` or `%}}`) of the shortcode tag that starts at `start`, or -1 when none starts there. */
export type ShortcodeReader = (start: number) => number;

/** A reader of the shortcode tags of `text`. Call it with increasing offsets (any order is correct, increasing is linear). */
export function createShortcodeReader(text: string): ShortcodeReader {
  const angleOpener = forwardSearch(text, "{{<");
  const percentOpener = forwardSearch(text, "{{%");
  const angleCloser = forwardSearch(text, ">}}");
  const percentCloser = forwardSearch(text, "%}}");
  return (start) => {
    const mark = text[start + 2];
    if (text[start] !== "{" || text[start + 1] !== "{" || (mark !== "<" && mark !== "%")) return -1;
    let index = skipSpaces(text, start + 3);
    if (text.startsWith("/*", index)) index = skipSpaces(text, index + 2);
    if (text[index] === "/") index = skipSpaces(text, index + 1);
    if (!isNameStart(text.charCodeAt(index))) return -1;
    while (index < text.length && isNameChar(text.charCodeAt(index))) index += 1;
    const closer = (mark === "<" ? angleCloser : percentCloser)(index);
    if (closer === -1) return -1;
    // Neither whitespace nor name characters include `{`, so no opener lies before `index`.
    const nextAngle = angleOpener(index);
    const nextPercent = percentOpener(index);
    if ((nextAngle !== -1 && nextAngle < closer) || (nextPercent !== -1 && nextPercent < closer)) return -1;
    return closer + 3;
  };
}

/**
 * `indexOf(needle, position)` that remembers its last answer: when asked from a later
 * position that the last answer still covers, it answers without searching again.
 */
function forwardSearch(text: string, needle: string): (position: number) => number {
  let from = -1;
  let found = -1;
  return (position) => {
    if (from !== -1 && position >= from && (found === -1 || found >= position)) return found;
    from = position;
    found = text.indexOf(needle, position);
    return found;
  };
}

function skipSpaces(text: string, index: number): number {
  let position = index;
  while (position < text.length) {
    const code = text.charCodeAt(position);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) break;
    position += 1;
  }
  return position;
}

/** `A-Z a-z 0-9 _` */
function isNameStart(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a) || code === 0x5f;
}

/** A name character: `A-Z a-z 0-9 _ - . /` */
function isNameChar(code: number): boolean {
  return isNameStart(code) || code === 0x2d || code === 0x2e || code === 0x2f;
}
