import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Whether the file at `url` is an ES module as Node decides it: `.mjs`, not `.cjs`, or else the
 * nearest package.json above it says `"type": "module"`. A CommonJS file that a process loads
 * through its ES module loader is one an ES module imported: Node scans its exports first
 * (issue 36 item 5: the CPU a cold process pays for it).
 */
export function isEsModule(url) {
  const path = fileURLToPath(url);
  if (path.endsWith(".mjs")) return true;
  if (path.endsWith(".cjs")) return false;
  for (let folder = dirname(path); folder !== dirname(folder); folder = dirname(folder)) {
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
    } catch {
      // No package.json here: keep climbing.
      continue;
    }
    if (manifest.name !== undefined || manifest.type !== undefined) return manifest.type === "module";
  }
  return false;
}
