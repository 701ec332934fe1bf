import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { builtCli } from "./built-cli.js";

// The real command, built (turbo builds the package before its tests).
const cli = builtCli;
const run = promisify(execFile);

/** The example knowledge base of the repository. */
export const exampleKnowledgeBase = fileURLToPath(new URL("../../../../examples/knowledge-base", import.meta.url));

/** Runs `lookup-knowledge ...args` in `cwd` with the embedded trace database, whatever DATABASE_URL the shell has. */
export async function runLookupKnowledge(cwd: string, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { DATABASE_URL: _ignored, ...environment } = process.env;
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], { cwd, env: { ...environment, NO_COLOR: "1" } });
    return { stdout, stderr, code: 0 };
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; code: number };
    return { stdout: failed.stdout, stderr: failed.stderr, code: failed.code };
  }
}
