// Issue 36 item 5: a package's entries shipped as bundled ES modules, so a process that imports
// `@lookup-knowledge/search-port/local` loads a handful of files instead of ~140 (Node's ES module
// loader costs about 1 ms of CPU a module: resolving, reading, compiling), which was most of what a
// one-query library process paid beyond SQLite's.
//
// Usage, in a package's `build` script after `tsc -b`: `node ../../tooling/scripts/bundle-entries.mjs`
// (the package is the working folder; it lists esbuild among its devDependencies). It bundles
// tsc's output of every entry of the `exports` map whose `default` is `./dist/bundle/<name>.js`
// (its `types` name tsc's file: `./dist/local/index.d.ts` is bundled from `./dist/local/index.js`)
// into `dist/bundle/`, with code splitting over all those entries: a module two entries reach is
// in one shared chunk, so `.` and `./local` share one copy of each class (`instanceof` across
// entries holds) and of each module's state. tsc's files stay as they are, and each entry's
// `lookup-knowledge-unbundled` condition names them (the CLI's bundle step resolves through it,
// to keep its own bundle's modules per file). `dist/bundle/inputs.json` lists the modules each
// file holds (what the tests read).
//
// What stays as before:
// - Every package imported by name (the workspace's `@lookup-knowledge/*` ones included) stays an
//   import, so it is loaded once, from where it is installed, and no CommonJS package is wrapped
//   into an ES module (issue 36 item 7: `require` is not defined in ES module scope).
// - `import.meta.url` in a bundled module is the URL of tsc's file it was bundled from (all the
//   bundle's files are in one folder, `dist/bundle/`, so the path from there is fixed): a
//   `createRequire`, a data file or a worker script is found where it was.
// - Dynamic imports (the writer's modules) stay dynamic: chunks of their own, loaded when run.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The entries to bundle, by output name: tsc's file (relative to the package) of each `exports` entry whose default is in `dist/bundle/`. */
export function bundledEntries(manifest) {
  const entries = {};
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target !== "object" || target === null) continue;
    const name = /^\.\/dist\/bundle\/([\w-]+)\.js$/.exec(target.default ?? "")?.[1];
    if (name === undefined) continue;
    const built = /^\.\/dist\/(.+)\.d\.ts$/.exec(target.types ?? "")?.[1];
    if (built === undefined || target["lookup-knowledge-unbundled"] !== `./dist/${built}.js`)
      throw new Error(
        `bundle-entries: exports["${subpath}"] bundles to ${target.default}, so its "types" must name tsc's declaration file (./dist/<path>.d.ts) and its "lookup-knowledge-unbundled" condition tsc's file beside it; got ${JSON.stringify(target)}`,
      );
    if (entries[name] !== undefined) throw new Error(`bundle-entries: two entries of exports bundle to ${target.default}`);
    entries[name] = `dist/${built}.js`;
  }
  return entries;
}

const keepImportMetaUrls = (outdir) => ({
  name: "lookup-knowledge-import-meta-url",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.js$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      if (!source.includes("import.meta.url")) return undefined;
      const fromBundle = relative(outdir, args.path).split(sep).join("/");
      return {
        contents: source.replaceAll("import.meta.url", `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`),
        loader: "js",
      };
    });
  },
});

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const packageRoot = process.cwd();
  const outdir = join(packageRoot, "dist/bundle");
  // The package's own esbuild: the one its devDependencies pin.
  const { build } = createRequire(join(packageRoot, "package.json"))("esbuild");
  const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"));
  const entryPoints = bundledEntries(manifest);
  if (Object.keys(entryPoints).length === 0) throw new Error("bundle-entries: no entry of exports defaults to ./dist/bundle/<name>.js");
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: packageRoot,
    entryPoints,
    outdir,
    // Every file in one folder: the path from a bundle's file to tsc's files is the same for all.
    chunkNames: "chunk-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    plugins: [keepImportMetaUrls(outdir)],
    // Maps through tsc's own to the TypeScript sources the package ships (`--enable-source-maps`
    // stack traces name them, as with tsc's files); the sources are not copied into the maps.
    sourcemap: true,
    sourcesContent: false,
    metafile: true,
    logLevel: "warning",
  });
  // Which modules each file holds, for the tests (its source map holds none).
  const inputs = Object.fromEntries(
    Object.entries(result.metafile.outputs)
      .filter(([file]) => !file.endsWith(".map"))
      .map(([file, output]) => [
        relative(outdir, resolve(packageRoot, file)).split(sep).join("/"),
        Object.keys(output.inputs).map((input) => relative(packageRoot, resolve(packageRoot, input)).split(sep).join("/")),
      ]),
  );
  writeFileSync(join(outdir, "inputs.json"), `${JSON.stringify(inputs, null, 2)}\n`);
}
