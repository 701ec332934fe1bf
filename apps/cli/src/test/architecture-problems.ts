/**
 * What ARCHITECTURE.md gets wrong about the code: an import edge it states that production
 * code does not have, one production code has that it does not state, and a file it names
 * that does not exist. Pure: the caller reads the document, the file list and the edges.
 */
export function architectureProblems(input: { markdown: string; files: readonly string[]; edges: ReadonlySet<string> }): string[] {
  const documented = documentedEdges(input.markdown);
  const problems: string[] = [];
  for (const edge of documented) if (!input.edges.has(edge)) problems.push(`states ${edge}, which no production code has`);
  for (const edge of input.edges) if (!documented.has(edge)) problems.push(`does not state ${edge}`);
  for (const name of namedFiles(input.markdown)) if (!names(input.files, name)) problems.push(`names ${name}, which does not exist`);
  return problems;
}

/** The edges the document states in its "What imports what" block: `from -> to, to` (or `-> nothing of ours`). */
export function documentedEdges(markdown: string): Set<string> {
  const block = /## What imports what[\s\S]*?```text\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (block === undefined) throw new Error('ARCHITECTURE.md has no "What imports what" block');
  const edges = new Set<string>();
  for (const line of block.split("\n")) {
    const match = /^(\S+)\s+->\s+(.*)$/.exec(line.trim());
    if (!match) continue;
    const targets = (match[2] as string).trim();
    if (targets === "nothing of ours") continue;
    for (const target of targets.split(",")) edges.add(`${match[1]} -> ${target.trim()}`);
  }
  return edges;
}

/**
 * Every `name.ts`-like token in backticks: code, scripts and documents the map points at. A
 * template such as `apps/cli/src/<name>-command.ts` names a pattern, not a file. Folders are
 * not checked: the document also names the data folder's layout (`index/`, `traces/spool/`).
 */
export function namedFiles(markdown: string): string[] {
  const tokens = [...markdown.matchAll(/`([^`\s<>]+\.(?:tsx?|mjs|md))`/g)].map((match) => match[1] as string);
  return [...new Set(tokens)];
}

/** A path names a file by its end (`reader/search-snapshot.ts`), a bare name anywhere in the repository. */
function names(files: readonly string[], name: string): boolean {
  return files.some((file) => file === name || file.endsWith(`/${name}`));
}
