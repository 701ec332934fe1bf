import { ConfigurationError, InvalidFilterError } from "@lookup-knowledge/core";
import {
  createKnowledgeMcpServerFactory,
  isLoopback,
  readMcpServerSettings,
  serveMcpHttp,
  serveMcpStdio,
  type McpServerSettings,
} from "@lookup-knowledge/mcp-server";
import type { CliConfig } from "./cli-config.js";
import { CliError } from "./cli-error.js";
import { withLookupKnowledgeBase } from "./with-lookup-knowledge-base.js";
import { printable } from "@lookup-knowledge/agent-tool/format";
import { mcpTokenVariable } from "./mcp-command-token.js";

export interface McpCommandOptions {
  http?: boolean;
  host?: string;
  port?: string;
  token?: string;
}

/**
 * `lookup-knowledge mcp`: serves the knowledge base of the data folder to MCP clients, on
 * stdio (the default) or Streamable HTTP (`--http`), with the store, settings and trace
 * spool the other commands use, until stdin closes (stdio) or SIGINT / SIGTERM.
 */
export async function runMcpCommand(
  config: CliConfig,
  options: McpCommandOptions,
  environment: NodeJS.ProcessEnv,
  warn: (message: string) => void,
): Promise<void> {
  const { port, token } = readHttpOptions(options, environment);
  const settings = readSettings(config);
  await withLookupKnowledgeBase(config, warn, async (knowledgeBase) => {
    const create = createKnowledgeMcpServerFactory({ retriever: knowledgeBase.retriever, store: knowledgeBase.store, settings });
    // A client starts the server in a folder of its choosing: say which settings it found.
    console.error(printable(describeServer(config, knowledgeBase.store.description, knowledgeBase.documents, settings)));
    const host = options.host ?? "127.0.0.1";
    if (options.http && !isLoopback(host) && token === undefined) {
      warn(`serving ${host} without a token: anyone who can reach this machine can read the knowledge base (set ${mcpTokenVariable})`);
    }
    if (options.http) {
      const server = await serveMcpHttp(create, {
        ...(options.host ? { host: options.host } : {}),
        port,
        ...(token ? { token } : {}),
        ...settings.http,
      });
      console.error(
        `lookup-knowledge mcp: serving ${server.url} (Streamable HTTP, stateless${token ? ", bearer token required" : ""}); Ctrl-C stops it`,
      );
      await untilSignal();
      await server.close();
    } else {
      const served = await serveMcpStdio(create());
      await Promise.race([served.closed, untilSignal()]);
      await served.close();
    }
  });
}

function readHttpOptions(options: McpCommandOptions, environment: NodeJS.ProcessEnv): { port: number; token?: string } {
  if (options.token !== undefined) {
    throw new CliError({
      code: "invalid_option",
      message: `--token is refused: a token on the command line can be read by other users of this machine. Set ${mcpTokenVariable} instead.`,
    });
  }
  if (!options.http && (options.host !== undefined || options.port !== undefined)) {
    throw new CliError({ code: "invalid_option", message: "--host and --port apply to --http only (stdio needs neither)." });
  }
  let port = 3333;
  if (options.port !== undefined) {
    port = Number(options.port);
    if (!/^\d{1,5}$/.test(options.port) || port > 65_535) {
      throw new CliError({
        code: "invalid_option",
        message: `--port must be a whole number from 0 to 65535, got ${JSON.stringify(options.port.slice(0, 20))}.`,
      });
    }
  }
  const token = environment[mcpTokenVariable]?.trim();
  if (token !== undefined && token !== "" && token.length < 16) {
    throw new CliError({
      code: "invalid_option",
      message: `${mcpTokenVariable} must hold at least 16 characters (a random token, e.g. from openssl rand -hex 32).`,
    });
  }
  return { port, ...(token ? { token } : {}) };
}

function readSettings(config: CliConfig): McpServerSettings {
  try {
    return readMcpServerSettings(config.mcp ?? {});
  } catch (error) {
    if ((ConfigurationError.isInstance(error) || InvalidFilterError.isInstance(error)) && config.file !== undefined) {
      const message = InvalidFilterError.isInstance(error) ? `mcp.filter: ${error.message}` : error.message;
      throw new CliError({ code: "invalid_configuration", message: `${message} (in ${config.file})`, cause: error });
    }
    throw error;
  }
}

/** One line: the data folder, the settings file (or none), the store and whether a fixed filter holds. */
function describeServer(config: CliConfig, store: string, documents: number, settings: McpServerSettings): string {
  return [
    `lookup-knowledge mcp: data ${config.dataDirectory}`,
    `settings ${config.file ?? "none (no lookup-knowledge.config.json here; pass --config)"}`,
    `store ${store} (${documents} documents)`,
    `fixed filter ${settings.filter ? "on" : "off"}`,
    `caller filters ${settings.callerFilter ? "allowed" : "refused"}`,
  ].join("; ");
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
