/** Text from a document, a port or a question file, with control characters (terminal escapes among them) shown as U+FFFD. */
export function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, "\uFFFD");
}
