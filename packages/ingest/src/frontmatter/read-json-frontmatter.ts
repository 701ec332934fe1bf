import { errorMessage } from "@lookup-knowledge/core";
import { DocumentError } from "../document/document-error.js";

/**
 * Parses JSON frontmatter (the object that opens a Hugo page). Throws `DocumentError`
 * naming `source` when it is not valid JSON, with the parser's reason and its line in the
 * file. The result is not trusted: `readFrontmatter` validates it like YAML.
 */
export function readJsonFrontmatter(jsonText: string, source: string): unknown {
  try {
    return JSON.parse(jsonText) as unknown;
  } catch (cause) {
    throw new DocumentError({ source, reason: `frontmatter is not valid JSON: ${jsonReason(jsonText, errorMessage(cause))}`, cause });
  }
}

/** The parser's message, with the line and column of the offset it names (the object starts the file). */
function jsonReason(jsonText: string, message: string): string {
  const reason = message.split("\n")[0]?.trim() ?? message;
  const position = /at position (\d+)/.exec(reason);
  if (position === null || /\(line \d+/.test(reason)) return reason;
  const before = jsonText.slice(0, Number(position[1]));
  const line = before.split(/\r\n|\r|\n/).length;
  const column = before.length - Math.max(before.lastIndexOf("\n"), before.lastIndexOf("\r"));
  return `${reason} (line ${line}, column ${column})`;
}
