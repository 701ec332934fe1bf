import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isEsModule } from "@lookup-knowledge/vitest-config/is-es-module";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundledModules } from "./test/bundled-modules.js";
import { exampleKnowledgeBase, runLookupKnowledge } from "./test/run-lookup-knowledge.js";
import { builtCli } from "./test/built-cli.js";

// The real command, built (turbo builds the package before its tests): one bundled file, whose
// commands load their own chunks when they run: what a command does not use, it does not pay for
// at start. The checks read the modules those files hold (`bundledModules`).
const cli = builtCli;
const cliFolder = fileURLToPath(new URL("..", import.meta.url));
const cliUrl = pathToFileURL(cliFolder).href;

const markdownParser = /\/(@lezer\+|micromark|mdast-util-)/;
const localIndex = /\/packages\/search-port\/dist\/local\//;
const retriever = /\/apps\/agent-tool\/dist\/create-knowledge-retriever\.js$/;
const traceDatabase = /\/(@electric-sql\+pglite|drizzle-orm)@/;
const openTelemetry = /\/@opentelemetry\+/;
const traceStoreRoot = /\/packages\/trace-store\/dist\/index\.js$/;
const indexWriter = /\/packages\/search-port\/dist\/local\/writer\//;
const zodModule = /\/zod@[^/]+\/node_modules\/zod\//;

describe("what each command loads", () => {
  let cwd: string;
  const command = (...args: string[]) => commandWith([], ...args);
  const commandWith = (nodeOptions: string[], ...args: string[]) => commandIn(cwd, nodeOptions, ...args);
  const commandUrls = (...args: string[]) => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const run = loadedModules([cli, ...args], { cwd, env: { ...environment, NO_COLOR: "1" } });
    expect(run.status, run.stderr).toBe(0);
    return run.urls;
  };
  const commandIn = (folder: string, nodeOptions: string[], ...args: string[]) => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const run = loadedModules([...nodeOptions, cli, ...args], { cwd: folder, env: { ...environment, NO_COLOR: "1" } });
    expect(run.status, run.stderr).toBe(0);
    // The query path is compiled by the CLI itself (code-cached-module.ts), seen apart from the hook's.
    return bundledModules([...run.urls, ...run.codeCached]);
  };
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-loads-"));
    expect((await runLookupKnowledge(cwd, "ingest", "--no-progress", exampleKnowledgeBase)).code).toBe(0);
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("--help loads no store, no retriever, no Markdown parser and no trace database", () => {
    const urls = command("--help");
    // The check sees the modules a command loads: the CLI's own entry among them.
    expect(urls.some((url) => url.endsWith("/apps/cli/src/main.ts"))).toBe(true);
    expect(
      urls.filter((url) => localIndex.test(url) || retriever.test(url) || markdownParser.test(url) || traceDatabase.test(url)),
    ).toEqual([]);
  });

  it("a query loads the local index and the retriever, and no Markdown parser", () => {
    const urls = command("query", "Who can issue a refund for a paid invoice?");
    expect(urls.some((url) => localIndex.test(url))).toBe(true);
    expect(urls.some((url) => retriever.test(url))).toBe(true);
    expect(urls.filter((url) => markdownParser.test(url))).toEqual([]);
  });

  it("issue 36 item 5: a query loads no OpenTelemetry while nothing registered it; it does once something has", () => {
    expect(command("query", "Who can issue a refund for a paid invoice?").filter((url) => openTelemetry.test(url))).toEqual([]);
    // What an OpenTelemetry SDK started by --import leaves on the global object (the API's registry).
    const registered = `data:text/javascript,globalThis[Symbol.for("opentelemetry.js.api.1")] = { version: "1.9.0" };`;
    const urls = commandWith(["--import", registered], "query", "Who can issue a refund for a paid invoice?");
    expect(urls.some((url) => openTelemetry.test(url))).toBe(true);
  });

  it("issue 36 item 5: a query loads the trace store's recording entry only, and no writer of the local index", () => {
    const urls = command("query", "Who can issue a refund for a paid invoice?");
    expect(urls.some((url) => url.endsWith("/packages/trace-store/dist/recording.js"))).toBe(true);
    expect(urls.filter((url) => traceStoreRoot.test(url) || indexWriter.test(url))).toEqual([]);
    // Nor ingest nor explain, which `./stores` brings.
    expect(urls.filter((url) => /\/agent-tool\/dist\/(ingest-into-store|explain\/)/.test(url))).toEqual([]);
    // The checks see both where they are loaded: `traces` reads through the root entry, an ingest writes.
    expect(command("traces").some((url) => traceStoreRoot.test(url))).toBe(true);
    expect(command("ingest", "--no-progress", exampleKnowledgeBase).some((url) => indexWriter.test(url))).toBe(true);
  });

  it("issue 36 item 5: a query, with a filter, loads no zod, as an ES module or through require, and fewer than 50 files", () => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    // Counts zod's CommonJS modules (what `schemaOnDemand` requires) at exit, on stderr.
    const requiredZod = `data:text/javascript,import { createRequire } from "node:module"; process.on("exit", () => process.stderr.write("zod required: " + Object.keys(createRequire("/").cache).filter((path) => path.includes("/zod/")).length + "\\n"));`;
    const query = (...args: string[]) => {
      const run = loadedModules(["--import", requiredZod, cli, "query", ...args], { cwd, env: { ...environment, NO_COLOR: "1" } });
      expect(run.status, run.stderr).toBe(0);
      return { files: run.urls, urls: bundledModules(run.urls), required: Number(/zod required: (\d+)/.exec(run.stderr)?.[1]) };
    };
    const plain = query("Who can issue a refund for a paid invoice?");
    expect(plain.urls.filter((url) => zodModule.test(url))).toEqual([]);
    expect(plain.required).toBe(0);
    // Issue 36 item 5: the files Node's loader reads and compiles (about 1 ms of CPU each): the
    // bundle's few, the packages kept outside it (LangChain's core) and built-ins.
    expect(plain.files.length).toBeLessThan(50);
    expect(query("--json", "--filter", "category=security", "Who can see the audit log?").required).toBe(0);
    // The count sees zod's CommonJS modules when they are there.
    const zod = createRequire(fileURLToPath(new URL("../../../packages/core/package.json", import.meta.url))).resolve("zod");
    const preloaded = loadedModules(["--require", zod, "--import", requiredZod, "-e", "0"], { cwd });
    expect(Number(/zod required: (\d+)/.exec(preloaded.stderr)?.[1])).toBeGreaterThan(0);
  });

  it("issue 36 item 5: a query compiles no ES module of the bin but main.js: the command line and the query path come from their CommonJS files", () => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const run = loadedModules([cli, "query", "how do I rotate keys"], { cwd, env: { ...environment, NO_COLOR: "1" } });
    expect(run.status, run.stderr).toBe(0);
    const bundle = pathToFileURL(join(dirname(cli), "/")).href;
    // The ES modules of the bin it loads hold its entry, the two loaders (and what they share) and the V8 budget of
    // issue 36 item 6 only (and esbuild's helpers, in a chunk of no module): as an ES module, the
    // command line (150 KB with commander) was compiled at every start.
    const esModules = bundledModules(run.urls.filter((url) => url.startsWith(bundle))).map((url) => url.slice(cliUrl.length));
    expect(esModules.sort()).toEqual([
      "src/code-cached-module.ts",
      "src/load-code-cached-entry.ts",
      "src/load-command-line-bundled.ts",
      "src/load-query-path-bundled.ts",
      "src/main.ts",
      "src/optimise-later.ts",
    ]);
    expect(run.codeCached.map((file) => basename(file))).toEqual(["command-line.cjs", "query-path.cjs"]);
    // Other commands' code is still imported from the chunks when they run: the check sees those.
    expect(commandUrls("stats").some((url) => url.startsWith(`${bundle}chunks/`))).toBe(true);
  });

  it("issue 36 item 5: a query loads no child_process built-in (commander's, required on first use in the bin), nor the dgram it brings, nor worker_threads", () => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    // Node's own list of the built-ins a process loaded, printed at exit.
    const builtIns = `data:text/javascript,process.on("exit", () => process.stderr.write("built-ins: " + process.moduleLoadList.filter((entry) => entry.startsWith("NativeModule ")).map((entry) => entry.slice(13)).join(" ") + "\\n"));`;
    const loaded = (args: string[], folder = cwd) => {
      const run = loadedModules(["--import", builtIns, ...args], { cwd: folder, env: { ...environment, NO_COLOR: "1" } });
      expect(run.status, run.stderr).toBe(0);
      return (/built-ins: ([^\n]*)/.exec(run.stderr)?.[1] ?? "").split(" ");
    };
    expect(loaded([cli, "query", "how do I rotate keys"]).filter((name) => ["child_process", "dgram"].includes(name))).toEqual([]);
    // The check sees the built-in when commander is required from its package, as the unbundled command does.
    expect(loaded(["-e", `require("commander")`], cliFolder)).toContain("child_process");
    // Issue 36 item 5: nor worker_threads: the dense scan's helper and the embedding thread load it
    // when they start one, which a small index and the calling thread's embedding never do. Seen
    // without the recording hook, which runs on a thread of its own and so loads the built-in itself.
    const plain = (args: string[]) => {
      const run = spawnSync(process.execPath, ["--import", builtIns, ...args], {
        cwd,
        env: { ...environment, NO_COLOR: "1" },
        encoding: "utf8",
      });
      expect(run.status, run.stderr).toBe(0);
      return (/built-ins: ([^\n]*)/.exec(run.stderr)?.[1] ?? "").split(" ");
    };
    expect(plain([cli, "query", "how do I rotate keys"])).not.toContain("worker_threads");
    expect(plain(["-e", `require("node:worker_threads")`])).toContain("worker_threads");
  });

  it("issue 36 item 5: a query imports no CommonJS package as an ES module (which starts Node's CommonJS export scanner)", () => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const run = loadedModules([cli, "query", "how do I rotate keys"], { cwd, env: { ...environment, NO_COLOR: "1" } });
    expect(run.status, run.stderr).toBe(0);
    // commander, LangChain's `Embeddings` and the p-queue it imports are bundled.
    expect(run.urls.filter((url) => url.startsWith("file:") && !isEsModule(url))).toEqual([]);
    // The check sees a CommonJS package imported as an ES module when there is one.
    const imported = loadedModules(["--input-type=module", "-e", `await import("commander");`], { cwd: cliFolder });
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.urls.filter((url) => url.startsWith("file:") && !isEsModule(url)).length).toBeGreaterThan(0);
  });

  it("issue 36 item 5: a query reads no file of commander's (bundled into the bin), as an ES module or through require", () => {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const requiredCommander = `data:text/javascript,import { createRequire } from "node:module"; process.on("exit", () => process.stderr.write("commander required: " + Object.keys(createRequire("/").cache).filter((path) => path.includes("/commander/")).length + "\\n"));`;
    const run = loadedModules(["--import", requiredCommander, cli, "query", "how do I rotate keys"], {
      cwd,
      env: { ...environment, NO_COLOR: "1" },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.urls.filter((url) => url.startsWith("file:") && url.includes("/commander/"))).toEqual([]);
    expect(Number(/commander required: (\d+)/.exec(run.stderr)?.[1])).toBe(0);
    // The count sees commander's files when they are required.
    const required = loadedModules(["--import", requiredCommander, "-e", `require("commander")`], { cwd: cliFolder });
    expect(required.status, required.stderr).toBe(0);
    expect(Number(/commander required: (\d+)/.exec(required.stderr)?.[1])).toBeGreaterThan(0);
  });

  it("issue 37: a query loads nothing of gaps (the command, its report's text, question lines and terms, the trace store's grouping); gaps does", async () => {
    const gaps =
      /\/(apps\/cli\/src\/(gaps-command|format-gap-report|gap-question-lines|gap-terms)\.ts|packages\/trace-store\/dist\/gaps\/)/;
    expect(command("query", "Who can issue a refund for a paid invoice?").filter((url) => gaps.test(url))).toEqual([]);
    // The check sees them where they are loaded. `gaps` moves the spooled lookups into the trace
    // database, after which `traces` reads it: it runs on a copy, so the other checks here see
    // the folder as a query left it, whatever their order.
    const copy = await mkdtemp(join(tmpdir(), "lookup-knowledge-cli-loads-gaps-"));
    try {
      cpSync(cwd, copy, { recursive: true });
      expect(commandIn(copy, [], "gaps").filter((url) => gaps.test(url)).length).toBeGreaterThan(0);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });

  it("issue 35 item 4: traces answers from the spool and loads no trace database and no Markdown parser", () => {
    const urls = command("traces");
    expect(urls.filter((url) => traceDatabase.test(url) || markdownParser.test(url))).toEqual([]);
  });

  it("traces prune loads the trace database (the check sees the database when it is there)", () => {
    const urls = command("traces", "prune", "--older-than", "2000-01-01");
    expect(urls.some((url) => traceDatabase.test(url))).toBe(true);
  });

  it("an ingest loads the Markdown parser and the local index, and no retriever (the check sees a parser when it is there)", () => {
    const urls = command("ingest", "--no-progress", exampleKnowledgeBase);
    expect(urls.some((url) => markdownParser.test(url))).toBe(true);
    expect(urls.some((url) => localIndex.test(url))).toBe(true);
    expect(urls.filter((url) => retriever.test(url) || traceDatabase.test(url))).toEqual([]);
  });

  it("issue 36 item 6: an ingest without a terminal's bar loads no cli-progress (the check matches cli-progress's entry as the loader names it)", () => {
    const progressBar = /\/node_modules\/.*cli-progress\//;
    expect(command("ingest", "--no-progress", exampleKnowledgeBase).filter((url) => progressBar.test(url))).toEqual([]);
  });
});

// Issue 35 item 5 (pay for what you use): the trace database's packages (PGlite, Drizzle, pg) and
// jieba are optional peers, loaded on first use by a dynamic import or require inside a
// function. A static `import`/`export ... from` that reaches one of them from a light entry
// point would make every user install it: the built files' static import graph is walked.
const workspace = fileURLToPath(new URL("../../../", import.meta.url));
const optionalPeers = ["@electric-sql/pglite", "@electric-sql/pglite-socket", "drizzle-orm", "pg", "@node-rs/jieba"];
const staticImport = /^\s*(?:import|export)\s+(?!type\b)(?:[^;"'`]*?\sfrom\s*)?["']([^"']+)["']/gm;

/** The built file a workspace package's export names (`@lookup-knowledge/x/sub`), or undefined for another package. */
function workspaceExport(specifier: string): string | undefined {
  const match = /^@lookup-knowledge\/([^/]+)(\/.*)?$/.exec(specifier);
  if (!match) return undefined;
  const folder = ["packages", "apps"]
    .map((group) => join(workspace, group, match[1] as string))
    .find((path) => existsSync(join(path, "package.json")));
  if (folder === undefined) return undefined;
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as { name: string; exports: Record<string, unknown> };
  if (manifest.name !== specifier.split("/").slice(0, 2).join("/")) return undefined;
  const entry = manifest.exports[`.${match[2] ?? ""}`] as { default: string } | undefined;
  return entry === undefined ? undefined : join(folder, entry.default);
}

/** The packages outside the workspace that `entry` imports statically, however deep inside the workspace, with one path to each. */
function staticPackages(entry: string): Map<string, string[]> {
  const reached = new Map<string, string[]>();
  const seen = new Set<string>();
  const visit = (file: string, path: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, "utf8").matchAll(staticImport)) {
      const specifier = match[1] as string;
      const here = [...path, file.slice(workspace.length)];
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier), here);
      else if (specifier.startsWith("@lookup-knowledge/")) {
        const target = workspaceExport(specifier);
        if (target !== undefined) visit(target, here);
      } else if (!specifier.startsWith("node:")) {
        const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] as string);
        if (!reached.has(name)) reached.set(name, here);
      }
    }
  };
  visit(entry, []);
  return reached;
}

describe("light entry points reach no optional peer statically (issue 35 item 5)", () => {
  const agentTool = JSON.parse(readFileSync(join(workspace, "apps/agent-tool/package.json"), "utf8")) as {
    exports: Record<string, unknown>;
  };
  const entries = [
    ...Object.keys(agentTool.exports)
      .filter((subpath) => subpath !== "./package.json")
      .map((subpath) => `@lookup-knowledge/agent-tool${subpath.slice(1)}`),
    "@lookup-knowledge/trace-store",
    "@lookup-knowledge/trace-store/recording",
    "@lookup-knowledge/text",
    "@lookup-knowledge/embeddings",
    "@lookup-knowledge/search-port/local",
  ];

  it.each(entries)("%s", (specifier) => {
    const entry = workspaceExport(specifier) as string;
    expect(existsSync(entry), entry).toBe(true);
    const reached = staticPackages(entry);
    const peers = optionalPeers.filter((name) => reached.has(name)).map((name) => `${name} through ${reached.get(name)?.join(" -> ")}`);
    expect(peers).toEqual([]);
  });

  it("the walk sees a reach where there is one: the trace database's connection module imports Drizzle", () => {
    const reached = staticPackages(join(workspace, "packages/trace-store/dist/database/connect-trace-database.js"));
    expect(reached.has("drizzle-orm")).toBe(true);
    // and it follows the workspace packages: the agent tool reaches stemmer through @lookup-knowledge/text.
    expect(staticPackages(workspaceExport("@lookup-knowledge/agent-tool") as string).has("stemmer")).toBe(true);
  });
});
