/** The parts of a records path, `/records/namespaces/{namespace}/(search|upsert)`: the namespace and the action; `null` for any other path. */
export function recordsPathOf(path: string): RegExpExecArray | null {
  return /^\/records\/namespaces\/([^/]*)\/(search|upsert)$/.exec(path);
}
