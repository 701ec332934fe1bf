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
