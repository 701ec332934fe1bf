import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Whether the file at `url` is an ES module as Node decides it: `.mjs`, not `.cjs`, or else the
 * nearest package.json above it says `"type": "module"`. A CommonJS file that a process loads
 * through its ES module loader is one an ES module imported: Node scans its exports first.
 */
export function isEsModule(url: string): boolean {
  const path = fileURLToPath(url);
  if (path.endsWith(".mjs")) return true;
  if (path.endsWith(".cjs")) return false;
  for (let folder = dirname(path); folder !== dirname(folder); folder = dirname(folder)) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { type?: string; name?: string };
      if (manifest.name !== undefined || manifest.type !== undefined) return manifest.type === "module";
    } catch {
      // No package.json here: keep climbing.
    }
  }
  return false;
}
