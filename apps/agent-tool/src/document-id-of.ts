/**
 * The characters a `document_id` shows percent-encoded (UTF-8, like `encodeURIComponent`):
 * `%` itself, so the encoding can be undone; every character whose NFKC form holds `<`, `"` or
 * `&`, and the angle brackets that only look like `<`, the CJK marks 〈 and 《 among them (they could open or close an element,
 * end an attribute or start an entity, and the escaping of other text changes them); white
 * space, control, format and separator characters (the escaping of other text collapses or
 * drops them, which is what made ids lossy); and lone surrogates (as `%uXXXX`: they have no
 * UTF-8). Letters of every script, digits and other punctuation stay as they are.
 */
const encoded =
  /[%<\uFE64\uFF1C\u02C2\u1438\u2039\u226E\u27E8\u276C\u276E\u29FC\u3008\u300A"\uFF02&\uFE60\uFF06\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/gu;

/**
 * The `document_id` a model reads for an evidence key: the key with the characters above
 * percent-encoded, so it is the same in an attribute, on a line and in structured content,
 * passes the escaping of knowledge text unchanged, and `evidenceKeyOf` gives the key back
 * exactly. An ordinary key (`billing/refunds#chunk-0`, `指南/安装#chunk-2`) reads as itself.
 */
export function documentIdOf(evidenceKey: string): string {
  return evidenceKey.replace(encoded, (character) =>
    character.length === 1 && character.charCodeAt(0) >= 0xd800 && character.charCodeAt(0) <= 0xdfff
      ? `%u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`
      : encodeURIComponent(character),
  );
}

/**
 * The evidence key a `document_id` names (`documentIdOf` undone), or undefined when the text
 * is not an id `documentIdOf` writes: a `%` not followed by a valid encoding, or an encoding
 * it would not have made. A model that copies the id as it read it gets the block back; a raw
 * key someone pastes (`a%41#chunk-0`, from the CLI or a LangChain document) is not taken for
 * another (`aA#chunk-0`): `evidenceKeyOf(text) ?? text` reads both.
 */
export function evidenceKeyOf(documentId: string): string | undefined {
  let key = "";
  let index = 0;
  while (index < documentId.length) {
    const percent = documentId.indexOf("%", index);
    if (percent === -1) {
      key += documentId.slice(index);
      break;
    }
    key += documentId.slice(index, percent);
    const surrogate = /^%u([0-9A-F]{4})/.exec(documentId.slice(percent, percent + 6));
    if (surrogate !== null) {
      key += String.fromCharCode(Number.parseInt(surrogate[1] as string, 16));
      index = percent + 6;
      continue;
    }
    const run = /^(?:%[0-9A-Fa-f]{2})+/.exec(documentId.slice(percent))?.[0];
    if (run === undefined) return undefined;
    let text: string;
    try {
      text = decodeURIComponent(run);
    } catch {
      return undefined;
    }
    key += text;
    index = percent + run.length;
  }
  return documentIdOf(key) === documentId ? key : undefined;
}
