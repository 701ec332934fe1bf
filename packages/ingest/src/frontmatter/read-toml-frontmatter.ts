import { createRequire } from "node:module";
import { DocumentError } from "../document/document-error.js";

/** `smol-toml`, loaded on first use: most documents have YAML frontmatter or none. */
let toml: typeof import("smol-toml") | undefined;

/** Nesting deeper than this in an inline array or table is refused (frontmatter has two or three levels). */
const maxDepth = 64;

/**
 * Parses TOML frontmatter (the text between the `+++` lines of a Hugo page) into a table.
 * Throws `DocumentError` naming `source` when it is not valid TOML, with the parser's reason
 * and its line in the file (the opening `+++` being line 1).
 */
export function readTomlFrontmatter(tomlText: string, source: string): Record<string, unknown> {
  const parser = loadTomlParser();
  try {
    return parser.parse(tomlText, { maxDepth });
  } catch (cause) {
    throw new DocumentError({ source, reason: `frontmatter is not valid TOML: ${tomlReason(cause)}`, cause });
  }
}

/** The `smol-toml` package, loaded on first use (`loadFrontmatterParsers` loads it ahead). */
export function loadTomlParser(): typeof import("smol-toml") {
  toml ??= createRequire(import.meta.url)("smol-toml") as typeof import("smol-toml");
  return toml;
}

function tomlReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const reason = (error.message.split("\n")[0] ?? "").replace(/^Invalid TOML document:\s*/, "").trim();
  const { line, column } = error as { line?: unknown; column?: unknown };
  if (typeof line !== "number" || typeof column !== "number") return reason;
  return `${reason} (line ${line + 1}, column ${column})`;
}
