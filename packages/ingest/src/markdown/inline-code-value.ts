/**
 * The text of a code span (`` `a` ``, ``` `` a`b `` ```) as CommonMark gives it: the
 * content between the backtick strings, line endings as spaces, and one space stripped
 * from each end when both ends have one and the content is not only spaces.
 */
export function inlineCodeValue(span: string): string {
  let fence = 0;
  while (span.charCodeAt(fence) === 96) fence += 1;
  const content = span.slice(fence, span.length - fence).replace(/\r\n|\r|\n/g, " ");
  return content.length >= 2 && content.startsWith(" ") && content.endsWith(" ") && /[^ ]/.test(content) ? content.slice(1, -1) : content;
}
