/** Every control and format character but the line feed the indentation writes between values. */
const unprintable = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\p{Cf}\u2028\u2029]/gu;

/**
 * `value` as indented JSON to print on a terminal: the control and format characters a string
 * from the knowledge base or a trace may hold (C0 and C1 controls such as an escape sequence's
 * ESC or CSI, bidi overrides, zero-width characters) are written as `\uXXXX` escapes, never raw.
 * The same JSON: it parses back to the same values.
 */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(unprintable, escapeUnits);
}

/** Each UTF-16 unit of `character` as `\uXXXX` (a format character past U+FFFF is two). */
function escapeUnits(character: string): string {
  let escaped = "";
  for (let unit = 0; unit < character.length; unit += 1) escaped += `\\u${character.charCodeAt(unit).toString(16).padStart(4, "0")}`;
  return escaped;
}
