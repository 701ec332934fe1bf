import { fileURLToPath } from "node:url";
import { build, type Rolldown } from "vite";
import { describe, expect, it } from "vitest";

const configFile = fileURLToPath(new URL("../vite.config.ts", import.meta.url));

/** The modules of the page's built chunks, by the path they were read from (the build is kept in memory). */
async function pageModules(): Promise<string[]> {
  const built = await build({ configFile, build: { write: false }, logLevel: "silent" });
  const outputs = (Array.isArray(built) ? built : [built]) as Rolldown.RolldownOutput[];
  return outputs.flatMap((output) => output.output.flatMap((file) => (file.type === "chunk" ? Object.keys(file.modules) : [])));
}

describe("the inspector page's build", () => {
  it("issue 36 (session 16, seen and left item 5): takes tsc's files of the workspace's packages (lookup-knowledge-unbundled), not their bundles, so it keeps only the modules it uses", async () => {
    const modules = (await pageModules()).map((path) => path.replaceAll("\\", "/"));
    const ours = modules.filter((path) => path.includes("/packages/"));
    expect(ours).toContain(
      fileURLToPath(new URL("../../../packages/core/dist/parse-filter-pairs.js", import.meta.url)).replaceAll("\\", "/"),
    );
    expect(ours.filter((path) => path.includes("/dist/bundle/"))).toEqual([]);
  });
});
