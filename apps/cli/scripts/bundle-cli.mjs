// Issue 36 item 5: the CLI shipped as one bundled file per entry (plus the chunks its commands
// load when they run), so a cold `query` does not pay Node's ES module loader for the ~300
// files of the workspace packages it uses (about 1 ms of CPU each: resolving, reading,
// compiling). Run after `tsc -b` (which builds the packages it imports): it bundles
// `src/main.ts` and what it imports into `dist/bundle/main.js`, the package's `bin`, with the
// chunks its commands load when they run (`await import`) in `dist/bundle/chunks/`, and writes
// which modules each file holds to `dist/bundle/inputs.json` (what the tests read). tsc's
// `dist/main.js` stays as it is: the same command, unbundled, running the packages' built files
// as they are now (a bundle holds their code as it was when it was built).
//
// What stays a file of its own, found as before:
// - A package the CLI depends on directly (commander, LangChain, zod, the trace database...)
//   is imported by name when it resolves from the CLI to the very file it resolves to from its
//   importer: the same code, loaded as before. Anything else reached (a package's own
//   dependency) is bundled, and so are `bundledDependencyModules` (below).
// - `import.meta.url` in a bundled module (data files, worker scripts, `createRequire`) is
//   replaced by the URL of the module it was written in, found through its package's
//   `package.json` at run time, so a word table, a dictionary or a worker entry is read from
//   the package that ships it, wherever it is installed. The build fails when that package is
//   not a dependency of the CLI (it could not be found from the bundle), or when a bundled
//   third-party module uses `__dirname` or `__filename` (which would name the bundle).
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { dynamicImportName } from "../dist/code-cached-module.js";
import { namesDirname } from "./names-dirname.mjs";
import { thirdPartyNotices } from "./third-party-notices.mjs";

const cliRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const requireFromCli = createRequire(join(cliRoot, "package.json"));
const outdir = join(cliRoot, "dist/bundle");

/** The nearest folder above `file` holding a package.json, and that package's name. */
function owningPackage(file) {
  for (let folder = dirname(file); folder !== dirname(folder); folder = dirname(folder)) {
    try {
      const { name } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
      if (typeof name === "string") return { root: folder, name };
    } catch {
      // No package.json here (or one without a name): keep climbing.
    }
  }
  throw new Error(`bundle-cli: no package.json with a name above ${file}`);
}

function resolvesFromCli(specifier) {
  try {
    return requireFromCli.resolve(specifier);
  } catch {
    return undefined;
  }
}

const isThirdParty = (file) => file.split(sep).includes("node_modules");

// Issue 36 item 5: modules of the CLI's dependencies bundled all the same, because they import a
// CommonJS package (an ES module importing one makes Node start its CommonJS export scanner, CPU
// a cold query paid): LangChain's `Embeddings` (the embedder's base class) imports p-queue. Its
// instances cross into LangChain only through the duck-typed `EmbeddingsInterface`; nothing
// checks them with `instanceof`, so a second copy beside the package's is safe. And commander,
// which only the CLI uses: required from node_modules it cost a cold run 10-20 ms more than
// bundled (its files resolved through the store's links, read and compiled one by one).
const bundledDependencyModules = new Set(["@langchain/core/embeddings", "commander"]);

// `import.meta.url` of a bundled module, as an expression: its file's URL, found from the URL of
// its package's package.json (an ES module resolves it; the CommonJS query path requires it).
const metaUrlIn = {
  esm: (path, manifest) => `new URL(${JSON.stringify(path)}, import.meta.resolve(${JSON.stringify(manifest)})).href`,
  cjs: (path, manifest) =>
    `new URL(${JSON.stringify(path)}, require("node:url").pathToFileURL(require.resolve(${JSON.stringify(manifest)}))).href`,
};

// Issue 36 item 5: in the bin, `main.ts` loads the command line from the CommonJS
// `command-line.cjs`, and `query` what it runs from `query-path.cjs`, each under a V8 code cache
// (src/load-command-line-bundled.ts, src/load-query-path-bundled.ts), not from the chunks.
const bundledLoaders = new Map([
  ["./load-command-line.js", join(cliRoot, "src/load-command-line-bundled.ts")],
  ["./load-query-path.js", join(cliRoot, "src/load-query-path-bundled.ts")],
]);
const codeCachedEntries = ["command-line", "query-path"];

// The workspace packages' files as tsc built them, not their own bundles (the
// `lookup-knowledge-unbundled` condition; tooling/scripts/bundle-entries.mjs): this bundle keeps
// its modules per file, which its tests and its query path's chunks rely on. ("module" is esbuild's default, which a custom condition drops.)
const conditions = ["lookup-knowledge-unbundled", "module"];

// The chunk of the ES module bundle that each package imported dynamically became (by its file),
// filled once that bundle is built.
const esmChunkOf = new Map();

const keepPackagesAndMetaUrls = (format) => ({
  name: "lookup-knowledge-cli-bundle",
  setup(pluginBuild) {
    if (format === "esm")
      pluginBuild.onResolve({ filter: /^\.\/load-(command-line|query-path)\.js$/ }, (args) =>
        args.importer === join(cliRoot, "src/main.ts") ? { path: bundledLoaders.get(args.path) } : undefined,
      );
    // What the query path imports dynamically, which a query does not run (the index's writer,
    // the OpenTelemetry API until something registered it, another store's adapter, the settings
    // file's schema), is imported from its chunk of the ES module bundle, as other commands do:
    // one copy, and neither held by query-path.cjs nor compiled by a query.
    if (format === "cjs")
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.pluginData === "probe") return undefined;
        const resolved = await pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: "probe" });
        const chunk = esmChunkOf.get(resolved.path);
        return chunk === undefined ? undefined : { path: `./${chunk}`, external: true };
      });
    // Issue 36 item 5: commander requires `node:child_process` at its top for the executable
    // subcommands the CLI does not have, and that built-in brings `net`, `dgram` and streams'
    // modules: 2.5-4 ms of CPU at every start. In the bundle it is required on first use instead.
    pluginBuild.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      args.pluginData !== "probe" && /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: "child_process", namespace: "lookup-knowledge-lazy-builtin" }
        : undefined,
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: "lookup-knowledge-lazy-builtin" }, (args) => ({
      contents: `module.exports = new Proxy({}, { get: (_, name) => require("node:${args.path}")[name] });`,
      loader: "js",
    }));
    pluginBuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === "probe" || args.path.startsWith("node:")) return undefined;
      if (args.kind === "entry-point" || bundledDependencyModules.has(args.path)) return undefined;
      const fromImporter = await pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: "probe" });
      if (fromImporter.errors.length > 0 || fromImporter.external) return undefined;
      const fromCli = await pluginBuild.resolve(args.path, { kind: args.kind, resolveDir: cliRoot, pluginData: "probe" });
      const cliDependency = !args.path.startsWith("@lookup-knowledge/");
      if (cliDependency && fromCli.errors.length === 0 && fromCli.path === fromImporter.path) return { path: args.path, external: true };
      return undefined;
    });
    pluginBuild.onLoad({ filter: /\.(c|m)?[jt]s$/ }, (args) => {
      const source = readFileSync(args.path, "utf8");
      const thirdParty = isThirdParty(args.path);
      // Comments left out: commander names __dirname only in its documentation comments.
      if (thirdParty && namesDirname(source, args.path))
        throw new Error(
          `bundle-cli: ${args.path} uses __dirname or __filename, which would name the bundle: keep its package a dependency of the CLI`,
        );
      if (!source.includes("import.meta.url")) return undefined;
      const { root, name } = owningPackage(args.path);
      const manifest = `${name}/package.json`;
      if (resolvesFromCli(manifest) !== join(root, "package.json"))
        throw new Error(
          `bundle-cli: ${args.path} uses import.meta.url, and ${manifest} does not resolve from the CLI to ${root}: add ${name} to the CLI's dependencies`,
        );
      let path = relative(root, args.path).split(sep).join("/");
      // The CLI's own sources: the URL of the file tsc compiles them to.
      if (root === cliRoot) path = path.replace(/^src\//, "dist/").replace(/\.ts$/, ".js");
      const url = metaUrlIn[format](path, manifest);
      const loader = args.path.endsWith(".ts") ? "ts" : "js";
      return { contents: source.replaceAll("import.meta.url", url), loader, resolveDir: dirname(args.path) };
    });
  },
});

const fromBuild = (path) => resolve(process.cwd(), path);
// Chunk names change with their contents: the previous build's go first.
rmSync(outdir, { recursive: true, force: true });
// `command-line.ts` is an entry here only for the chunks of what its commands import when they
// run, which `command-line.cjs` imports too; its own ES module copy is not kept (below).
const { metafile } = await build({
  entryPoints: [join(cliRoot, "src/main.ts"), join(cliRoot, "src/command-line.ts")],
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // Bundled CommonJS code that calls `require` (a Node built-in, an optional dependency) gets
  // Node's own, made for the bundle's file.
  banner: {
    js: 'import { createRequire as __cliCreateRequire } from "node:module";\nconst require = __cliCreateRequire(import.meta.url);',
  },
  chunkNames: "chunks/[name]-[hash]",
  conditions,
  metafile: true,
  logLevel: "warning",
  plugins: [keepPackagesAndMetaUrls("esm")],
});
for (const [output, { entryPoint }] of Object.entries(metafile.outputs))
  if (entryPoint !== undefined)
    esmChunkOf.set(fromBuild(entryPoint.replace(/^[a-z-]+:/, "")), relative(outdir, fromBuild(output)).split(sep).join("/"));
// The ES module copy of the command line: the bin loads `command-line.cjs` instead, and no chunk
// imports an entry.
const commandLineEsm = join(outdir, "command-line.js");
rmSync(commandLineEsm);
delete metafile.outputs[relative(process.cwd(), commandLineEsm).split(sep).join("/")];
for (const entry of codeCachedEntries) await bundleCodeCached(entry);

/**
 * `src/<entry>.ts` as one CommonJS file, `dist/bundle/<entry>.cjs`: Node 20 has no compile cache
 * for ES modules, and a CommonJS file compiled through `vm.Script` can start from V8's
 * (src/code-cached-module.ts). The command line and what `query` runs are bundled so. Their
 * dynamic imports of the CLI's own modules load the chunks of the ES module bundle; a package
 * kept outside is required.
 */
async function bundleCodeCached(entry) {
  const file = join(outdir, `${entry}.cjs`);
  const bundled = await build({
    entryPoints: [join(cliRoot, `src/${entry}.ts`)],
    outfile: file,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    conditions,
    metafile: true,
    logLevel: "error",
    plugins: [keepPackagesAndMetaUrls("cjs")],
  });
  // `import.meta` left in CommonJS would be an empty object: every URL must have been replaced.
  const emptyImportMeta = bundled.warnings.filter((warning) => warning.id === "empty-import-meta");
  if (emptyImportMeta.length > 0)
    throw new Error(`bundle-cli: import.meta left in ${entry}.cjs: ${emptyImportMeta.map((warning) => warning.location?.file).join(", ")}`);
  // Node 20 runs a script's own `import()` only behind a flag: each of the file's dynamic imports of a
  // package becomes a call of the function the loader passes in. The calls renamed must be those
  // imports, all of them and no more (code in a string, such as a worker's source, keeps its own).
  const dynamicImports = Object.values(bundled.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((imported) => imported.kind === "dynamic-import" && imported.external)
    .map((imported) => imported.path);
  let renamed = 0;
  const source = readFileSync(file, "utf8").replace(/\bimport\(("[^"]+")\)/g, (call, specifier) => {
    if (!dynamicImports.includes(JSON.parse(specifier))) return call;
    renamed += 1;
    return `${dynamicImportName}(${specifier})`;
  });
  if (renamed !== dynamicImports.length)
    throw new Error(`bundle-cli: ${entry}.cjs imports ${dynamicImports.join(", ")} dynamically, and ${renamed} calls were renamed`);
  writeFileSync(file, source);
  for (const [output, value] of Object.entries(bundled.metafile.outputs)) metafile.outputs[output] = value;
  Object.assign(metafile.inputs, bundled.metafile.inputs);
}

// Each file written, relative to dist/bundle/, with the modules it holds, relative to the CLI's folder.
const inputs = Object.fromEntries(
  Object.entries(metafile.outputs).map(([output, { inputs: held }]) => [
    relative(outdir, fromBuild(output)).split(sep).join("/"),
    Object.keys(held)
      // A module the bundle step wrote (the lazy `child_process`) is no file of the CLI's.
      .filter((input) => !input.startsWith("lookup-knowledge-lazy-builtin:"))
      .map((input) =>
        relative(cliRoot, fromBuild(input.replace(/^[a-z-]+:/, "")))
          .split(sep)
          .join("/"),
      ),
  ]),
);
writeFileSync(join(outdir, "inputs.json"), `${JSON.stringify(inputs)}\n`);
// The licence notices of the third-party code copied into the bundle travel with it.
const copiedPackages = Object.keys(metafile.inputs)
  .map((input) => fromBuild(input.replace(/^[a-z-]+:/, "")))
  .filter(isThirdParty)
  .map((file) => owningPackage(file).root);
writeFileSync(join(outdir, "THIRD-PARTY-NOTICES.txt"), thirdPartyNotices(copiedPackages));
chmodSync(join(outdir, "main.js"), 0o755);
// tsc's unbundled `dist/main.js` was the bin before the bundle: a link a package manager made
// then (npx keeps one in its cache per project) still names it, so it stays executable too.
chmodSync(join(cliRoot, "dist/main.js"), 0o755);
console.log(`bundle-cli: ${Object.keys(metafile.inputs).length} modules into ${Object.keys(inputs).length} files in dist/bundle/`);
