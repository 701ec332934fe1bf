import { decodePathPart } from "./decode-path-part.js";
import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The built page: `vite build` writes it into `dist/web` (found the same from `src/` and `dist/`). */
export const webDirectory = fileURLToPath(new URL("../dist/web/", import.meta.url));

const types: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
};

/** Security headers of every answer: no framing, no sniffing, and only the page's own scripts, styles and API. */
export const securityHeaders: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};

/**
 * Answers a GET outside `/api/` with a file of the built page, or `index.html` for any path
 * without an extension (the page routes itself); `false` when there is no such file.
 */
export async function serveStaticAsset(pathname: string, response: ServerResponse, directory = webDirectory): Promise<boolean> {
  const relative = extname(pathname) === "" ? "index.html" : decodePathPart(pathname).replace(/^\/+/, "");
  const file = normalize(join(directory, relative));
  if (!file.startsWith(normalize(directory).replace(/[\\/]?$/, sep))) return false;
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return false;
  }
  response.writeHead(200, { ...securityHeaders, "content-type": types[extname(file)] ?? "application/octet-stream" });
  response.end(body);
  return true;
}
