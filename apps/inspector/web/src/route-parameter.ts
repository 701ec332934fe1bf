/**
 * A parameter of the page's route (`#/trace/<id>`, `#/playground/<query>`) as its text. A
 * link with a malformed `%` escape (`#/playground/100%`) is read as written rather than
 * breaking the page.
 */
export function routeParameter(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}
