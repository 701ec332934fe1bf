import { parseToolArguments } from "@lookup-knowledge/agent-tool/tool-input";
import type { z } from "zod";
import { ToolArgumentError } from "./tool-argument-error.js";

/** The most bytes a tool call's arguments may take as JSON. */
export const maxArgumentBytes = 65_536;

/**
 * A tool call's arguments (none given reads as `{}`) parsed with the tool's schema, within
 * `maxArgumentBytes`: else a `ToolArgumentError` of one sentence, the problems in the words of
 * the library's `parseToolArguments` (the LangChain tool's), then `usage`.
 */
export function readToolArguments<Schema extends z.ZodType>(schema: Schema, args: unknown, usage: string): z.output<Schema> {
  const given = args === undefined ? {} : args;
  const bytes = Buffer.byteLength(JSON.stringify(given), "utf8");
  if (bytes > maxArgumentBytes) {
    throw new ToolArgumentError(`The arguments are too large (${bytes} bytes; at most ${maxArgumentBytes}). ${usage}`);
  }
  const parsed = parseToolArguments(schema, given);
  if (!parsed.success) throw new ToolArgumentError(`${parsed.problems}. ${usage}`);
  return parsed.data;
}
