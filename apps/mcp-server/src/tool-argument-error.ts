import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { McpServerErrorCode } from "./mcp-server-error-code.js";

const marker = "lookup-knowledge.error.mcp-tool-arguments";
const symbol = Symbol.for(marker);

/**
 * A tool call whose arguments are not what the tool takes (code `invalid_tool_arguments`). Its
 * message is one sentence naming what was wrong and how to call the tool; it never echoes the
 * values given.
 */
export class ToolArgumentError extends LookupKnowledgeError<Extract<McpServerErrorCode, "invalid_tool_arguments">> {
  private readonly [symbol] = true;

  constructor(message: string) {
    super({ code: "invalid_tool_arguments", message });
    this.name = "ToolArgumentError";
  }

  static override isInstance(error: unknown): error is ToolArgumentError {
    return LookupKnowledgeError.hasMarker(error, marker);
  }
}

/** The most bytes a tool call's arguments may take as JSON. */
export const maxArgumentBytes = 65_536;

/**
 * The arguments as an object holding only `allowed` keys, within `maxArgumentBytes`: else a
 * `ToolArgumentError` naming the unknown keys (at most five, shortened) or the size.
 */
export function readArgumentObject(args: unknown, allowed: readonly string[], usage: string): Record<string, unknown> {
  if (args === undefined) return {};
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new ToolArgumentError(`The arguments must be an object. ${usage}`);
  }
  const bytes = Buffer.byteLength(JSON.stringify(args), "utf8");
  if (bytes > maxArgumentBytes) {
    throw new ToolArgumentError(`The arguments are too large (${bytes} bytes; at most ${maxArgumentBytes}). ${usage}`);
  }
  const given = args as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    const names = unknown.slice(0, 5).map((key) => JSON.stringify(key.length > 40 ? `${key.slice(0, 39)}…` : key));
    const more = unknown.length > 5 ? ", ..." : "";
    throw new ToolArgumentError(`Unknown argument${unknown.length === 1 ? "" : "s"} ${names.join(", ")}${more}. ${usage}`);
  }
  return given;
}

/** A required string argument with text in it, at most `maxChars` characters long. */
export function readTextArgument(given: Record<string, unknown>, name: string, maxChars: number, usage: string): string {
  const value = given[name];
  if (value === undefined) throw new ToolArgumentError(`${name} is missing. ${usage}`);
  if (typeof value !== "string") throw new ToolArgumentError(`${name} must be a string. ${usage}`);
  if (value.trim() === "") throw new ToolArgumentError(`${name} must contain text. ${usage}`);
  if (value.length > maxChars) {
    throw new ToolArgumentError(`${name} is too long (${value.length} characters; at most ${maxChars}). ${usage}`);
  }
  return value;
}
