/** Whether a file-system error says the file does not exist (`ENOENT`). */
export function isMissing(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";
}
