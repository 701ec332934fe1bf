import { documentId } from "./document-id.js";

/** A page that stands for its folder: a Hugo section page, an index or a README, also with a language (`_index.en`). */
const folderPage = /^(?:_index|index|readme)(?:\.[a-z]{2}(?:[-_][a-z0-9]+)?)?$/i;

/**
 * A title made from a document's path, for a document whose frontmatter has no title and
 * whose body has no H1: the file name without its extension, `-` and `_` read as spaces,
 * the first letter upper case (`guides/load-balance.md` -> "Load balance",
 * `API_gateway.mdx` -> "API gateway"). An `_index.md`, `index.md` or `README.md` is named
 * after its folder (`deploy/kubernetes/_index.md` -> "Kubernetes"); at the root, after
 * itself ("Index", "README").
 */
export function fileTitle(source: string): string {
  // The document id is the path already normalised: posix separators, NFC, no extension.
  const parts = documentId(source)
    .split("/")
    .filter((part) => part !== "" && part !== ".");
  const name = parts.pop() ?? "";
  const folder = parts[parts.length - 1];
  const file = source.replaceAll("\\", "/").split("/").pop() ?? source;
  return readable(folderPage.test(name) && folder !== undefined && folder !== ".." ? folder : name) || file;
}

function readable(name: string): string {
  const words = name.replace(/[-_\s]+/g, " ").trim();
  const first = words.codePointAt(0);
  if (first === undefined) return "";
  const initial = String.fromCodePoint(first);
  return initial.toUpperCase() + words.slice(initial.length);
}
