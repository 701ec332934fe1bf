import { InvalidFilterError, filterOperators } from "@lookup-knowledge/core";
import type { MetadataFilter } from "@lookup-knowledge/core";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import type { z } from "zod";
import { readPlainMetadataFilter } from "./plain-metadata-filter.js";

const valueReason = "expected a string, a finite number or a boolean";

// Built, and zod loaded, on first use: `readPlainMetadataFilter` reads a plainly valid filter without it.
export const metadataFilterSchema = schemaOnDemand((z): z.ZodType<unknown> => {
  const filterValueSchema = z.union([z.string(), z.number(), z.boolean()], { error: valueReason });

  function numberOperand(operator: string) {
    return z.number({ error: `${operator} needs a finite number` }).optional();
  }

  function listOperand(operator: string) {
    return z.array(filterValueSchema, { error: `${operator} needs an array of strings, numbers or booleans` }).optional();
  }

  const conditionSchema = z
    .strictObject({
      $eq: filterValueSchema.optional(),
      $ne: filterValueSchema.optional(),
      $gt: numberOperand("$gt"),
      $gte: numberOperand("$gte"),
      $lt: numberOperand("$lt"),
      $lte: numberOperand("$lte"),
      $in: listOperand("$in"),
      $nin: listOperand("$nin"),
      $exists: z.boolean({ error: "$exists needs true or false" }).optional(),
    })
    .refine((condition) => Object.values(condition).some((operand) => operand !== undefined), {
      error: `a condition needs at least one operator (${filterOperators.join(", ")})`,
    });

  const fieldSchema = z.union([filterValueSchema, conditionSchema], {
    error: (issue) =>
      Array.isArray(issue.input)
        ? "a list is not a value; to match any of several values use { $in: [...] }"
        : `${valueReason}, or an operator object such as { $eq: ... }`,
  });

  function logicalOperand(operator: "$and" | "$or") {
    return z
      .array(
        z.lazy(() => schema),
        { error: `${operator} needs a non-empty array of filters` },
      )
      .min(1, { error: `${operator} needs a non-empty array of filters` })
      .optional();
  }

  const schema: z.ZodType<unknown> = z
    .object({ $and: logicalOperand("$and"), $or: logicalOperand("$or") }, { error: "filter must be an object" })
    .catchall(fieldSchema)
    .superRefine((filter, context) => {
      for (const key of Object.keys(filter)) {
        if (key === "$and" || key === "$or") continue;
        if (key === "") {
          context.addIssue({ code: "custom", path: [key], message: "a field name may not be empty", params: { name: true } });
        } else if (key.startsWith("$")) {
          context.addIssue({
            code: "custom",
            path: [key],
            message: `unknown operator ${JSON.stringify(key)} (only $and and $or combine filters; field names may not start with "$")`,
            params: { name: true },
          });
        }
      }
    });
  return schema;
});

/**
 * Parses an untrusted metadata filter (tool input, configuration, a request body). Returns a
 * fresh copy of the filter, or throws `InvalidFilterError` whose `path` names the bad part
 * (`tenant.$in[2]`, `$or[1]`, `(root)`) and whose message says what is wrong.
 *
 * Accepted: an object of field conditions joined by AND, where a condition is a bare
 * string / finite number / boolean (shorthand for `$eq`) or an object of the operators
 * `$eq $ne $gt $gte $lt $lte $in $nin $exists`, plus `$and` / `$or` holding non-empty arrays
 * of filters. A field whose value is `undefined` is refused rather than silently dropped.
 */
export function validateMetadataFilter(filter: unknown): MetadataFilter {
  const plain = readPlainMetadataFilter(filter);
  if (plain !== undefined) return plain;
  const result = metadataFilterSchema().safeParse(filter);
  if (result.success) return result.data as MetadataFilter;
  const issue = pickIssue(result.error.issues);
  throw new InvalidFilterError({ path: formatPath(issue.path), reason: issue.message });
}

interface Problem {
  path: PropertyKey[];
  message: string;
}

/** The most telling issue: a bad field name first, then the first issue, looking inside unions. */
function pickIssue(issues: readonly z.core.$ZodIssue[]): Problem {
  const named = issues.find((issue) => issue.code === "custom" && issue.params?.["name"] === true);
  const first = named ?? issues[0];
  if (first === undefined) return { path: [], message: "not a valid filter" };
  return explain(first);
}

function explain(issue: z.core.$ZodIssue): Problem {
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0] ?? "";
    const message = key.startsWith("$")
      ? `unknown operator ${JSON.stringify(key)} (known: ${filterOperators.join(", ")})`
      : `${JSON.stringify(key)} is not an operator; nested fields are not supported`;
    return { path: [...issue.path, key], message };
  }
  if (issue.code === "invalid_union") {
    // The branch that got furthest is the one the input meant (an object meant a condition).
    let best: z.core.$ZodIssue | undefined;
    let bestDepth = 0;
    for (const branch of issue.errors) {
      for (const inner of branch) {
        const depth = reachedDepth(inner);
        if (depth > bestDepth) {
          best = inner;
          bestDepth = depth;
        }
      }
    }
    if (best !== undefined) {
      const inner = explain(best);
      return { path: [...issue.path, ...inner.path], message: inner.message };
    }
  }
  return { path: issue.path, message: issue.message };
}

function reachedDepth(issue: z.core.$ZodIssue): number {
  if (issue.code === "unrecognized_keys") return issue.path.length + 1;
  if (issue.code === "custom") return issue.path.length + 1;
  if (issue.code === "invalid_union") {
    let deepest = 0;
    for (const branch of issue.errors) for (const inner of branch) deepest = Math.max(deepest, reachedDepth(inner));
    return issue.path.length + deepest;
  }
  return issue.path.length;
}

function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else if (segment === "") text += text === "" ? '""' : '.""';
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text === "" ? "(root)" : text;
}
