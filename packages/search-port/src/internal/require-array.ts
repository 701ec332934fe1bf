import { InvalidWriteError } from "../invalid-write-error.js";

const expected = { upsert: "an array of records", deleteDocuments: "an array of document ids" } as const;

/** Throws an `InvalidWriteError` (`invalid_argument`) unless a writer's `operation` was given an array. */
export function requireArray(value: unknown, operation: keyof typeof expected): void {
  if (Array.isArray(value)) return;
  throw new InvalidWriteError({ code: "invalid_argument", operation, message: `${operation}: expected ${expected[operation]}` });
}
