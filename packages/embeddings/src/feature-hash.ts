/**
 * A fast, deterministic 32-bit hash of a string: FNV-1a over its UTF-16 code units, followed
 * by the murmur3 finaliser so that every output bit depends on every input bit (FNV-1a alone
 * mixes its high bits poorly). The result is an unsigned 32-bit integer, the same on every
 * machine and Node version.
 */
export function featureHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let position = 0; position < text.length; position += 1) {
    hash ^= text.charCodeAt(position);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
