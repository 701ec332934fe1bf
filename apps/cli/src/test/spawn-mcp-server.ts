import { spawn, type ChildProcess } from "node:child_process";
import { builtCli } from "./built-cli.js";

/** The real command, built. */
export const cliPath = builtCli;

/** This process's environment without DATABASE_URL (the embedded trace database), without colours. */
export function cliEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && key !== "DATABASE_URL") environment[key] = value;
  return { ...environment, NO_COLOR: "1", ...extra };
}

/** `lookup-knowledge ...args mcp --http --port 0` running, with the URL it said it serves. */
export async function spawnHttpServer(
  cwd: string,
  args: string[],
  extra: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess; stderr: () => string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, [cliPath, ...args], { cwd, env: cliEnvironment(extra), stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr?.setEncoding("utf8");
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 30 s; stderr: ${stderr}`)), 30_000);
    child.stderr?.on("data", (chunk: string) => {
      stderr += chunk;
      const match = /serving (http:\/\/\S+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before serving; stderr: ${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
