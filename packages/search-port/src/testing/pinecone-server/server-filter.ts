import type { MetadataFilter } from "@lookup-knowledge/core";
import { HttpFailure } from "./http-failure.js";

const fieldOperators = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"]);

/**
 * Checks a filter as Pinecone does and rewrites it to Pinecone's semantics in terms of the
 * reference: `$ne` / `$nin` also need the field to exist. Refuses (400) what Pinecone refuses.
 */
export function serverFilter(filter: Record<string, unknown>): MetadataFilter {
  if (Object.keys(filter).length === 0) throw new HttpFailure(400, "a filter may not be empty");
  const rewritten: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === "$and" || key === "$or") {
      if (!Array.isArray(value) || value.length === 0) throw new HttpFailure(400, `${key} needs a non-empty array`);
      rewritten[key] = value.map((part) => {
        if (part === null || typeof part !== "object" || Array.isArray(part)) throw new HttpFailure(400, `${key} holds a non-object`);
        return serverFilter(part as Record<string, unknown>);
      });
      continue;
    }
    if (key.startsWith("$")) throw new HttpFailure(400, `unsupported operator ${key}`);
    rewritten[key] = serverCondition(key, value);
  }
  return rewritten as MetadataFilter;
}

function serverCondition(field: string, condition: unknown): unknown {
  if (typeof condition === "string" || typeof condition === "number" || typeof condition === "boolean") return condition;
  if (condition === null || typeof condition !== "object" || Array.isArray(condition)) {
    throw new HttpFailure(400, `invalid condition for ${field}`);
  }
  const result: Record<string, unknown> = {};
  for (const [operator, operand] of Object.entries(condition)) {
    if (!fieldOperators.has(operator)) throw new HttpFailure(400, `unsupported operator ${operator} on ${field}`);
    if (operator === "$in" || operator === "$nin") {
      if (!Array.isArray(operand) || operand.some((item) => typeof item !== "string" && typeof item !== "number")) {
        throw new HttpFailure(400, `${operator} on ${field} takes a list of strings or numbers`);
      }
    }
    result[operator] = operand;
  }
  if ("$ne" in result || "$nin" in result) {
    if (result["$exists"] === false) return { $in: [] };
    result["$exists"] = true;
  }
  return result;
}
