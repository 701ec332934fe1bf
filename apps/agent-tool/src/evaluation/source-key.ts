/**
 * The form in which a question file's `relevant` paths and evidence sources are compared:
 * forward slashes, no leading `./`, and no `.md` / `.mdx` extension, so `billing/refunds`
 * and `billing/refunds.md` name the same document.
 */
export function sourceKey(path: string): string {
  return path
    .trim()
    .replace(/\\/g, "/")
    .replace(/^(\.\/)+/, "")
    .replace(/\.mdx?$/i, "");
}
