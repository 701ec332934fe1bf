/** Helpers to assemble WebAssembly modules byte by byte (the kernels ship as code, not binaries). */

/** A module section: its id, its length (unsigned LEB128) and its content. */
export function section(id: number, content: number[]): number[] {
  return [id, ...unsignedLeb(content.length), ...content];
}

/** `value` as unsigned LEB128. */
export function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value >>> 0;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0);
  return bytes;
}

/** `value` (an int32) as signed LEB128. */
export function signedLeb(value: number): number[] {
  const bytes: number[] = [];
  let rest = value | 0;
  for (;;) {
    const byte = rest & 0x7f;
    rest >>= 7;
    const done = (rest === 0 && (byte & 0x40) === 0) || (rest === -1 && (byte & 0x40) !== 0);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}

/** A name (import, export) as its length and its bytes. */
export function wasmName(text: string): number[] {
  return [text.length, ...Array.from(text, (character) => character.charCodeAt(0))];
}
