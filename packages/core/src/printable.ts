/**
 * Text from a document, a port, a question file or a file another process wrote, with control characters (terminal escapes among them), invisible
 * format characters (`\p{Cf}`: bidirectional overrides such as U+202E, zero-width characters) and the line and
 * paragraph separators U+2028 and U+2029 shown as U+FFFD.
 */
export function printable(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, "\uFFFD");
}
