/** Plain scalars YAML 1.2's core schema reads as null or a boolean. */
const nullWord = /^(?:null|Null|NULL)$/;
const booleanWord = /^(?:true|True|TRUE|false|False|FALSE)$/;
/** A flow list of quoted strings without escapes: `['a', "b"]`, or `[]`. */
const quotedList = /^\[ *(?:(?:'[^']*'|"[^"\\]*")(?: *, *(?:'[^']*'|"[^"\\]*"))* *)?\]$/;
const quotedItem = /'([^']*)'|"([^"\\]*)"/g;
/** Characters a plain scalar read here may not start with: YAML indicators, and what could start a number or null. */
const unsafeStart = /^[-?:,[\]{}#&*!|>'"%@`~.+0-9]/;
/** Characters that make a line more than a simple scalar (control characters, line separators, a byte order mark). */
const unsafeCharacter = /[\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/;
/** A value read here. */
export type SimpleYamlValue = string | boolean | string[] | null;

const entryLine = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
const itemLine = /^( *)- (.*)$/;

/**
 * Reads the common shape of Markdown frontmatter without a YAML parser: top-level
 * `key: value` lines, and `key:` lines followed by a block list of `- item` lines, where
 * each value is a plain string (not a number or null in YAML 1.2's core schema), a
 * boolean, a quoted string without escapes, or a one-line list of such quoted strings. Returns what a YAML parser gives for such a text, or
 * undefined when the text uses anything else (comments, flow collections, multi-line
 * scalars, anchors, tags, numbers, repeated keys, tabs...), for the caller to parse it in
 * full. A fast path, not a second YAML parser: it never guesses.
 */
export function readSimpleYaml(text: string): Record<string, SimpleYamlValue> | undefined {
  if (text.includes("\t")) return undefined;
  const result: Record<string, SimpleYamlValue> = {};
  /** The key whose value is a list, while its items may follow. */
  let listKey: string | undefined;
  let listIndent = -1;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const item = itemLine.exec(line);
    if (item !== null) {
      if (listKey === undefined) return undefined;
      const indent = (item[1] as string).length;
      if (listIndent === -1) listIndent = indent;
      if (indent !== listIndent) return undefined;
      const value = scalar((item[2] as string).trim());
      if (typeof value !== "string") return undefined;
      const list = result[listKey];
      if (Array.isArray(list)) list.push(value);
      else result[listKey] = [value];
      continue;
    }
    const entry = entryLine.exec(line);
    if (entry === null) return undefined;
    const key = entry[1] as string;
    // A key YAML reads as null or a boolean is not the string it looks like.
    if (Object.hasOwn(result, key) || key === "__proto__" || nullWord.test(key) || booleanWord.test(key)) return undefined;
    const rest = (entry[2] ?? "").trim();
    if (rest === "") {
      // `key:` alone: null, unless a list follows.
      result[key] = null;
      listKey = key;
      listIndent = -1;
      continue;
    }
    listKey = undefined;
    const value = quotedList.test(rest) ? Array.from(rest.matchAll(quotedItem), (match) => match[1] ?? match[2] ?? "") : scalar(rest);
    if (value === undefined) return undefined;
    result[key] = value;
  }
  // No entry at all (blank text): YAML reads null there, which the full parser gives.
  return Object.keys(result).length === 0 ? undefined : result;
}

/** A one-line scalar read here: a quoted string without escapes, a boolean or a plain string; undefined otherwise. */
function scalar(raw: string): string | boolean | undefined {
  if (raw === "" || unsafeCharacter.test(raw)) return undefined;
  const double = /^"([^"\\]*)"$/.exec(raw);
  if (double !== null) return double[1];
  const single = /^'([^']*)'$/.exec(raw);
  if (single !== null) return single[1];
  if (booleanWord.test(raw)) return raw.charCodeAt(0) === 116 || raw.charCodeAt(0) === 84; /* t T */
  if (unsafeStart.test(raw) || raw.includes(": ") || raw.includes(" #") || raw.endsWith(":") || nullWord.test(raw)) return undefined;
  return raw;
}
