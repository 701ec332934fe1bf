/**
 * Two 32-bit hashes of a string's UTF-16 code units, of two unrelated kinds (`kind` 0: FNV-1a,
 * 1: a multiply-rotate mix), each finished by MurmurHash3's avalanche so every bit depends on
 * every unit: `kind` 0 alone is a lookup's bucket and check (the caller then compares the text
 * itself); both together are a 64-bit key where no text is kept to compare.
 */
export function hashText(text: string, kind: 0 | 1): number {
  let hash = kind === 0 ? 0x811c9dc5 : 0x9747b28c;
  if (kind === 0) {
    for (let at = 0; at < text.length; at += 1) hash = Math.imul(hash ^ text.charCodeAt(at), 0x01000193);
  } else {
    for (let at = 0; at < text.length; at += 1) {
      hash = Math.imul(hash ^ text.charCodeAt(at), 0x5bd1e995);
      hash ^= hash >>> 13;
    }
  }
  hash ^= text.length;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
