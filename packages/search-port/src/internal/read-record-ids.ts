import { LookupKnowledgeError } from "@lookup-knowledge/core";
import type { SearchPortErrorCode } from "../search-port-error-code.js";

/** The most ids one `fetchRecords` call takes. */
export const maxFetchIds = 100;

/** The ids of a `fetchRecords` call, checked: an array of at most 100 non-empty strings. */
export function readRecordIds(ids: unknown): readonly string[] {
  const refuse = (reason: string): never => {
    throw new LookupKnowledgeError<SearchPortErrorCode>({ code: "invalid_argument", message: `fetchRecords: ${reason}` });
  };
  if (!Array.isArray(ids)) return refuse("ids must be an array of record ids");
  if (ids.length > maxFetchIds) return refuse(`at most ${maxFetchIds} ids a call, got ${ids.length}`);
  ids.forEach((id, index) => {
    if (typeof id !== "string" || id === "") refuse(`ids[${index}] must be a non-empty string`);
  });
  return ids as string[];
}
