import { createRequire } from "node:module";
import { mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadedModules } from "@lookup-knowledge/vitest-config/loaded-modules";
import { describe, expect, it } from "vitest";
import { build, directory, useIndexFolder } from "./test/local-port-test-fixtures.js";

useIndexFolder();

// The built package, as a program loads it (turbo builds the package before its tests).
const entry = fileURLToPath(new URL("../../dist/local/index.js", import.meta.url));
const zodModule = /\/zod@[^/]+\/node_modules\/zod\//;
// Prints, at exit, how many of zod's CommonJS modules `require` loaded (what `schemaOnDemand` requires).
const requiredZod = `data:text/javascript,import { createRequire } from "node:module"; process.on("exit", () => process.stderr.write("zod required: " + Object.keys(createRequire("/").cache).filter((path) => path.includes("/zod/")).length + "\\n"));`;

/** Runs `script` (an ES module's body) in a process of its own; what it loaded, and how many zod modules it required. */
function run(script: string, args: string[] = []) {
  const child = loadedModules(["--import", requiredZod, ...args, "--input-type=module", "-e", script]);
  expect(child.status, child.stderr).toBe(0);
  return {
    esZod: child.urls.filter((url) => zodModule.test(url)),
    requiredZod: Number(/zod required: (\d+)/.exec(child.stderr)?.[1]),
    stdout: child.stdout,
  };
}

describe("issue 36 item 6 (review): a writer opened as a CLI ingest opens it loads no zod", () => {
  it("with embeddings, mode write and onEmbedderChange a function, taking over a dead holder's lock, then upserting and committing", async () => {
    await (await build()).close();
    // A lock left by a process of this host that is gone (an id above any pid_max, never reused):
    // the writer reads its owner file (lockOwnerOf) and takes the lock over.
    const gone = 2_147_483_000;
    mkdirSync(join(directory, "write.lock"));
    writeFileSync(
      join(directory, "write.lock", "owner.json"),
      JSON.stringify({ pid: gone, hostname: hostname(), acquiredAt: "2026-12-07T16:00:00.000Z" }),
    );
    const writer = run(`
      const { openLocalSearchPort } = await import(${JSON.stringify(entry)});
      const embed = (text) => [text.length % 7 + 1, 1, 0];
      const embeddings = {
        identity: { id: "review/other", version: "1", dimension: 3 },
        embedQuery: async (text) => embed(text),
        embedDocuments: async (texts) => texts.map(embed),
      };
      const port = await openLocalSearchPort({ directory: ${JSON.stringify(directory)}, embeddings, mode: "write", onEmbedderChange: () => "start-empty" });
      await port.upsert([{ id: "a#0", content: "after the takeover", metadata: { docId: "a", chunkIndex: 0 } }]);
      await port.commit();
      console.log(port.stats().chunks);
      await port.close();`);
    expect(writer.stdout.trim()).toBe("1");
    expect(writer.esZod).toEqual([]);
    expect(writer.requiredZod).toBe(0);
    // The checks see zod when it is loaded, either way.
    const zod = createRequire(import.meta.url).resolve("zod");
    expect(run("0;", ["--require", zod]).requiredZod).toBeGreaterThan(0);
    expect(run(`await import(${JSON.stringify(zod)});`).esZod.length).toBeGreaterThan(0);
  });
});
