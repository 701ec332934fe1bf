import type { z } from "zod";

/** What `parseToolArguments` gives: the parsed arguments, or the problems in one phrase. */
export type ParsedToolArguments<Output> = { success: true; data: Output } | { success: false; problems: string };

/**
 * Parses a tool call's arguments with the tool's zod schema and, when they do not fit, says
 * what is wrong in one phrase that every face of the tool uses (the LangChain tool, the MCP
 * server): `query is missing; unknown argument "q"`, `query must be a string`, `Unknown
 * arguments "a", "b"`. A problem about one argument starts with its name; the phrase starts
 * with a capital only when its first problem names no argument. It names arguments, types and
 * lengths, never the values given. A pattern's or a refinement's message in the schema is a
 * phrase that follows the argument's name (`"must contain text"`).
 */
export function parseToolArguments<Schema extends z.ZodType>(schema: Schema, args: unknown): ParsedToolArguments<z.output<Schema>> {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { success: true, data: parsed.data };
  const issues = parsed.error.issues;
  const rootType = issues.find((issue) => issue.path.length === 0 && issue.code === "invalid_type");
  if (rootType !== undefined) return { success: false, problems: "The arguments must be an object" };
  // Each argument's problems in the schema's order, then the arguments the schema does not take.
  const ordered = [...issues.filter((issue) => issue.path.length > 0), ...issues.filter((issue) => issue.path.length === 0)];
  const problems = [...new Set(ordered.map((issue) => describeIssue(issue, args)))];
  const phrase = problems.join("; ");
  const namesNoArgument = (ordered[0]?.path.length ?? 0) === 0;
  return { success: false, problems: namesNoArgument ? phrase.charAt(0).toUpperCase() + phrase.slice(1) : phrase };
}

function describeIssue(issue: z.core.$ZodIssue, args: unknown): string {
  if (issue.code === "unrecognized_keys") return unknownArguments(issue.keys);
  const name = issue.path.map(String).join(".");
  if (issue.path.length === 0) return issue.message;
  const value = valueAt(args, issue.path);
  switch (issue.code) {
    case "invalid_type":
      return value === undefined ? `${name} is missing` : `${name} must be ${withArticle(issue.expected)}`;
    case "too_small":
      if (issue.origin !== "string") return `${name} is too small (at least ${issue.minimum})`;
      return Number(issue.minimum) <= 1
        ? `${name} must contain text`
        : `${name} is too short (${lengthOf(value)} characters; at least ${issue.minimum})`;
    case "too_big":
      if (issue.origin !== "string") return `${name} is too large (at most ${issue.maximum})`;
      return `${name} is too long (${lengthOf(value)} characters; at most ${issue.maximum})`;
    case "invalid_format":
    case "custom":
      return `${name} ${issue.message}`;
    default:
      return `${name} is not valid`;
  }
}

/** `unknown argument "q"`, or up to five names (each at most 40 characters) and `...`. */
function unknownArguments(keys: readonly string[]): string {
  const names = keys.slice(0, 5).map((key) => JSON.stringify(key.length > 40 ? `${key.slice(0, 39)}…` : key));
  const more = keys.length > 5 ? ", ..." : "";
  return `unknown argument${keys.length === 1 ? "" : "s"} ${names.join(", ")}${more}`;
}

function withArticle(expected: string): string {
  if (expected === "record") return "an object";
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function valueAt(args: unknown, path: readonly PropertyKey[]): unknown {
  let value = args;
  for (const key of path) {
    if (typeof value !== "object" || value === null || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function lengthOf(value: unknown): number | string {
  return typeof value === "string" ? value.length : "?";
}
