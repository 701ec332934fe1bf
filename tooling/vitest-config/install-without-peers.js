import { cpSync, mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * Installs the built package at `packageFolder` into `root/node_modules` as a user who left
 * out its optional peers gets it: the package's manifest and `copied` folders are copied (a
 * link would let Node find the workspace's packages from the real path), and only `linked`
 * dependencies are linked, to where the workspace has them. Returns the folder to run from.
 */
export function installWithoutPeers(options) {
  const { root, packageFolder } = options;
  const manifest = createRequire(join(packageFolder, "package.json"))("./package.json");
  const installed = join(root, "node_modules", manifest.name);
  mkdirSync(installed, { recursive: true });
  cpSync(join(packageFolder, "package.json"), join(installed, "package.json"));
  for (const folder of options.copied) cpSync(join(packageFolder, folder), join(installed, folder), { recursive: true });
  for (const name of options.linked) {
    const target = realpathSync(join(packageFolder, "node_modules", name));
    const link = join(root, "node_modules", name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(target, link, "dir");
  }
  return root;
}
