import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { builtCli } from "./test/built-cli.js";

// Issue 36 item 5: the built command is one bundled file plus the chunks its commands load
// (scripts/bundle-cli.mjs). A bundled module's `import.meta.url` (its data files, worker
// scripts, `createRequire`) was replaced by its own file's URL, found through its package.
const bundle = dirname(builtCli);
const cliRoot = fileURLToPath(new URL("../", import.meta.url));
const bundleFiles = [builtCli, ...readdirSync(join(bundle, "chunks")).map((name) => join(bundle, "chunks", name))];
const rewritten = /new URL\("([^"]+)", import\.meta\.resolve\("([^"]+)"\)\)/g;
// The command line and the query path, as CommonJS files the bin compiles under a code cache.
const codeCachedFiles = ["command-line.cjs", "query-path.cjs"].map((name) => join(bundle, name));
const rewrittenInCommonJs = /new URL\("([^"]+)", require\("node:url"\)\.pathToFileURL\(require\.resolve\("([^"]+)"\)\)\)/g;

describe("issue 36 item 5: the bundled CLI", () => {
  it("is the package's bin, and is not older than any module it holds (a stale bundle would test old code)", () => {
    const manifest = JSON.parse(readFileSync(join(cliRoot, "package.json"), "utf8")) as { bin: Record<string, string> };
    expect(join(cliRoot, manifest.bin["lookup-knowledge"] as string)).toBe(builtCli);
    const inputs = JSON.parse(readFileSync(join(bundle, "inputs.json"), "utf8")) as Record<string, string[]>;
    const built = statSync(builtCli).mtimeMs;
    const held = Object.values(inputs).flat();
    expect(held.length).toBeGreaterThan(100);
    // A module newer than the bundle, or gone since (a package's file renamed or removed), makes it stale.
    const newer = held.filter(
      (input) => (statSync(join(cliRoot, input), { throwIfNoEntry: false })?.mtimeMs ?? Number.POSITIVE_INFINITY) > built,
    );
    expect(newer, "the bundle holds modules older than these, or gone: rebuild it: pnpm --filter @lookup-knowledge/cli build").toEqual([]);
  });

  it("is executable, and so is the unbundled dist/main.js, the bin before the bundle, which links made then (npx's cache) still name", () => {
    for (const file of [builtCli, join(cliRoot, "dist", "main.js")]) {
      expect({ file, executable: (statSync(file).mode & 0o111) === 0o111 }).toEqual({ file, executable: true });
    }
  });

  it("holds no import.meta.url of a bundled module: each became the URL of the module's own file, which its package ships", () => {
    const found: string[] = [];
    for (const file of [...bundleFiles, ...codeCachedFiles]) {
      const source = readFileSync(file, "utf8");
      const commonJs = file.endsWith(".cjs");
      // The banner's `createRequire(import.meta.url)` (the bundle's own `require`) is the one left; CommonJS has none.
      expect(source.split("import.meta.url").length - 1, file).toBe(commonJs ? 0 : 1);
      const fromBundle = createRequire(file);
      for (const [, path, manifest] of source.matchAll(commonJs ? rewrittenInCommonJs : rewritten)) {
        // Resolved as at run time: from the bundle's file, through the package's exports.
        const module = join(dirname(fromBundle.resolve(manifest as string)), path as string);
        expect(existsSync(module), `${path} of ${manifest}, from ${file}`).toBe(true);
        found.push(`${manifest} ${path}`);
      }
    }
    // The ones a lookup and an ingest need: the embedder's word table, jieba, the parse workers.
    expect(found).toEqual(
      expect.arrayContaining([
        "@lookup-knowledge/embeddings/package.json dist/load-word-table.js",
        "@lookup-knowledge/text/package.json dist/load-jieba.js",
        "@lookup-knowledge/ingest/package.json dist/parse-pool/parse-pool.js",
        "@lookup-knowledge/cli/package.json dist/load-code-cached-entry.js",
        "@lookup-knowledge/cli/package.json dist/command-line.js",
      ]),
    );
  });

  it("keeps the dense-scan worker's code as its package has it (started from source with `eval`, as item 7's test starts it)", async () => {
    const { denseScanWorkerSource } = (await import(
      join(cliRoot, "../../packages/search-port/dist/local/dense/dense-scan-worker-source.js")
    )) as { denseScanWorkerSource: string };
    // A template literal in the built package and in the bundle: the same characters between the backquotes.
    const holding = bundleFiles.filter((file) => readFileSync(file, "utf8").includes(`\`${denseScanWorkerSource}\``));
    expect(holding.length).toBe(1);
  });

  it("imports by name only the CLI's dependencies and optional peers: none a devDependency only, which a user's install lacks", () => {
    // A user's install holds the CLI's dependencies and the peers installed beside it, not its devDependencies:
    // before the bundle, packages such as the MCP SDK were imported from the workspace packages that depend on them.
    const manifest = JSON.parse(readFileSync(join(cliRoot, "package.json"), "utf8")) as {
      name: string;
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const installed = new Set([
      String(manifest.name),
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    const named = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\(\s*|import\.meta\.resolve\(\s*)"([^".\s][^"\s]*)"/g;
    const packageOf = (specifier: string) =>
      specifier
        .split("/")
        .slice(0, specifier.startsWith("@") ? 2 : 1)
        .join("/");
    const missing = new Set<string>();
    for (const file of [...bundleFiles, ...codeCachedFiles]) {
      for (const [, specifier] of readFileSync(file, "utf8").matchAll(named)) {
        if (!isBuiltin(specifier as string) && !installed.has(packageOf(specifier as string)))
          missing.add(`${specifier as string} (${file.slice(bundle.length + 1)})`);
      }
    }
    expect([...missing]).toEqual([]);
  });

  it("ships the licence notices of the third-party code it copies (THIRD-PARTY-NOTICES.txt), one for each package it holds code of", () => {
    const inputs = JSON.parse(readFileSync(join(bundle, "inputs.json"), "utf8")) as Record<string, string[]>;
    const copied = new Set<string>();
    for (const input of Object.values(inputs).flat()) {
      const parts = input.split("/");
      const at = parts.lastIndexOf("node_modules");
      if (at < 0) continue;
      const name = parts[at + 1]?.startsWith("@") ? `${parts[at + 1]}/${parts[at + 2]}` : (parts[at + 1] as string);
      const { version } = JSON.parse(readFileSync(join(cliRoot, ...parts.slice(0, at + 1), name, "package.json"), "utf8")) as {
        version: string;
      };
      copied.add(`${name}@${version}`);
    }
    // micromark, stemmer, drizzle-orm among them (MIT, MIT, Apache-2.0).
    expect([...copied]).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^micromark@/),
        expect.stringMatching(/^stemmer@/),
        expect.stringMatching(/^drizzle-orm@/),
      ]),
    );
    const notices = readFileSync(join(bundle, "THIRD-PARTY-NOTICES.txt"), "utf8");
    expect([...copied].filter((release) => !notices.includes(`\n${release}\nLicence: `))).toEqual([]);
    // The MIT text itself, as stemmer ships it.
    expect(notices).toMatch(/stemmer@[^\n]+\nLicence: MIT\n[^=]*Permission is hereby granted/);
  });
});
