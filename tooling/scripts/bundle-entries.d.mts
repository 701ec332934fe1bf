/**
 * The entries `bundle-entries.mjs` bundles, by output name (`dist/bundle/<name>.js`): tsc's file,
 * relative to the package, of each `exports` entry whose `default` is in `dist/bundle/`. Throws
 * when such an entry's `types` or `lookup-knowledge-unbundled` condition does not name tsc's files.
 */
export function bundledEntries(manifest: { exports?: Record<string, unknown> }): Record<string, string>;
