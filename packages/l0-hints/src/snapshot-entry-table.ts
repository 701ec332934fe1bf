import type { EntryTable } from "./entry-table.js";
import type { ParsedEntry } from "./parse-knowledge-entries.js";
import { invalid, strings } from "./read-snapshot-head.js";

/**
 * The entries of a snapshot, each decoded from its JSON when first asked for: a lookup reads
 * the few entries its queries return, not all of them. A damaged entry throws
 * `invalid_l0_snapshot` when read.
 */
export function snapshotEntryTable(
  bytes: Uint8Array,
  offsets: Int32Array,
  entryDomain: Int32Array,
  domainNames: readonly string[],
): EntryTable {
  const count = offsets.length - 1;
  if (count < 0 || offsets[0] !== 0 || offsets[count] !== bytes.length || entryDomain.length !== count) {
    throw invalid("entry offsets");
  }
  for (let position = 0; position < count; position += 1) {
    if ((offsets[position] as number) > (offsets[position + 1] as number)) throw invalid("entry offsets");
    const domain = entryDomain[position] as number;
    if (domain < -1 || domain >= domainNames.length) throw invalid("entry domains");
  }
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const decoded = new Array<ParsedEntry | undefined>(count);
  const at = (position: number): ParsedEntry => {
    const known = decoded[position];
    if (known !== undefined) return known;
    const entry = decodeEntry(decoder, bytes.subarray(offsets[position] as number, offsets[position + 1] as number), position);
    const domain = entryDomain[position] as number;
    if ((entry.domain ?? null) !== (domain < 0 ? null : domainNames[domain])) throw invalid(`entry ${position}'s domain`);
    decoded[position] = entry;
    return entry;
  };
  return {
    count,
    at,
    all: () => Array.from({ length: count }, (_, position) => at(position)),
    entryDomain,
    domainNames,
  };
}

function decodeEntry(decoder: { decode(bytes: Uint8Array): string }, bytes: Uint8Array, position: number): ParsedEntry {
  let tuple: unknown;
  try {
    tuple = JSON.parse(decoder.decode(bytes));
  } catch {
    throw invalid(`entry ${position} is not JSON`);
  }
  const fine =
    Array.isArray(tuple) &&
    tuple.length === 6 &&
    typeof tuple[0] === "string" &&
    typeof tuple[1] === "string" &&
    (tuple[2] === null || typeof tuple[2] === "string") &&
    strings(tuple[3]) &&
    (tuple[4] === null || typeof tuple[4] === "string") &&
    strings(tuple[5]);
  if (!fine) throw invalid(`entry ${position}`);
  const [id, source, title, keywords, domain, entities] = tuple as [string, string, string | null, string[], string | null, string[]];
  return {
    id,
    source,
    ...(title === null ? {} : { title }),
    keywords,
    ...(domain === null ? {} : { domain }),
    entities,
  };
}
