import type { ToolInvocationRecord } from "./tool-invocation-record.js";

/**
 * The `record` of a store whose `append` writes at once: the same write, its failure handed
 * back as a rejected promise, never thrown where `record` is called (a caller that does not
 * await it sees an unhandled rejection, not a lookup that throws).
 */
export function recordThroughAppend(
  append: (invocation: ToolInvocationRecord) => void,
): (invocation: ToolInvocationRecord) => Promise<void> {
  return (invocation) => {
    try {
      append(invocation);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  };
}
