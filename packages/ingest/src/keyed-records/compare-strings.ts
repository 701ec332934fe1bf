/** Orders strings by UTF-16 code units, whatever the locale. */
export function compareStrings(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}
